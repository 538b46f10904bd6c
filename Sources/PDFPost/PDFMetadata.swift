import Glibc
import Support

/// A standard a PDF can declare conformance to.
package enum PDFStandard: String, CaseIterable, Sendable {
    /// PDF/UA-1 (ISO 14289-1): accessible, tagged, titled, with a language.
    case ua1 = "ua-1"
    /// PDF/A-2b (ISO 19005-2, basic): archivable; fonts embedded, an sRGB OutputIntent, XMP
    /// repeating the document information, a document ID, printable annotations.
    case a2b = "a-2b"

    /// A comma-separated list ("ua-1,a-2b"); nil when a name is not a standard.
    package static func parseList(_ text: String) -> Set<PDFStandard>? {
        var out: Set<PDFStandard> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let standard = PDFStandard(rawValue: name.trimmed) else { return nil }
            out.insert(standard)
        }
        return out.isEmpty ? nil : out
    }
}

/// A PDF's document information. With a fixed `created` time (e.g. from SOURCE_DATE_EPOCH,
/// the reproducible-builds convention) two renders of the same input are the same bytes:
/// Cairo writes nothing else that changes between runs.
package struct PDFMetadata: Sendable {
    package var title: String?
    package var author: String?
    package var subject: String?
    package var keywords: String?
    /// Seconds since 1970 (UTC) for the creation and modification dates; nil: Cairo's clock.
    package var created: Int64?
    /// A structure tree (Document, a P per text block, Link) and the catalog's /Lang and
    /// /ViewerPreferences: on unless turned off (`--no-tags`).
    package var tagged = true
    /// The document's language (BCP 47, e.g. "en", "ar", "ja-JP"); nil: "en".
    package var language: String?
    /// Standards the file declares conformance to (in its XMP metadata).
    package var standards: Set<PDFStandard> = []
    package init() {}

    /// Letters, digits and hyphens, 1 to 35 characters: a BCP 47 tag's alphabet, nothing that
    /// could leave a PDF string.
    package static func isLanguageTag(_ text: String) -> Bool {
        (1...35).contains(text.utf8.count) && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D }
    }

    /// The PDF options, defined once for the CLI's flags, the service's query parameters and
    /// the library's settings.
    package static let options: [OptionDefinition<PDFMetadata>] = [
        OptionDefinition("title", "text", schema: "string", "PDF title (the document information; viewers show it).") { $0.title = try $1.string() },
        OptionDefinition("author", "text", schema: "string", "PDF author.") { $0.author = try $1.string() },
        OptionDefinition("subject", "text", schema: "string", "PDF subject.") { $0.subject = try $1.string() },
        OptionDefinition("keywords", "text", schema: "string", "PDF keywords.") { $0.keywords = try $1.string() },
        OptionDefinition("no-tags", "bool", schema: "boolean", """
            PDF: no structure tree (by default text blocks are paragraphs or headings in reading order, links follow them, \
            and the catalog names the language: the first text block's lang, else en).
            """) { $0.tagged = !(try $1.bool()) },
        OptionDefinition("pdf-standard", "ua-1|a-2b|ua-1,a-2b", schema: "string", """
            PDF: conform to and declare (in XMP metadata) ua-1 (PDF/UA-1; needs a title and tags), a-2b (PDF/A-2b: an sRGB \
            OutputIntent, a document ID, printable links), or both: ua-1,a-2b.
            """) {
            let text = try $1.string()
            guard let standards = PDFStandard.parseList(text) else {
                throw OptionError("'\(text)' is not \(PDFStandard.allCases.map(\.rawValue).joined(separator: ", ")) or a comma-separated list of them")
            }
            $0.standards = standards
        },
    ]

    /// These settings (a card's own) under `caller`'s: the caller's title, author, subject,
    /// keywords, language and dates win where given; tags are off when either turns them off;
    /// standards add up.
    package func under(_ caller: PDFMetadata) -> PDFMetadata {
        var out = caller
        out.title = caller.title ?? title
        out.author = caller.author ?? author
        out.subject = caller.subject ?? subject
        out.keywords = caller.keywords ?? keywords
        out.language = caller.language ?? language
        out.created = caller.created ?? created
        out.tagged = caller.tagged && tagged
        out.standards = caller.standards.union(standards)
        return out
    }

    /// Whether the file gets hlrender's catalog update (the language, XMP, OutputIntent, ID).
    package var needsUpdate: Bool { tagged || !standards.isEmpty }

    /// What a standard needs that these settings lack, in flag words; nil when nothing.
    package func unmetRequirement() -> String? {
        guard standards.contains(.ua1) else { return nil }
        if !tagged { return "PDF/UA-1 needs the structure tree (no-tags must be off)" }
        if (title ?? "").trimmed.isEmpty { return "PDF/UA-1 needs a document title (title)" }
        return nil
    }

    /// The document's language as the catalog names it: the one given when it is a language
    /// tag, else English.
    var documentLanguage: String { language.flatMap { PDFMetadata.isLanguageTag($0) ? $0 : nil } ?? "en" }

    /// The catalog entries Cairo 1.16 cannot write: the language, and (with a title) that a
    /// viewer should show it rather than the file name.
    var catalogEntries: String {
        "/Lang \(PDFCatalog.literal(documentLanguage))" + (title == nil ? "" : " /ViewerPreferences << /DisplayDocTitle true >>")
    }

    /// "YYYY-MM-DDThh:mm:ssZ", as Cairo takes dates.
    package static func iso8601(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let two = { (n: Int32) in n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
