import Flags
import Glibc
import Render
import Support

/// PDF document information, and SOURCE_DATE_EPOCH for reproducible files.
struct PDFFlags: FlagGroup {
    @Option("title", help: "PDF title.") var title: String?
    @Option("author", help: "PDF author.") var author: String?
    @Option("subject", help: "PDF subject.") var subject: String?
    @Option("keywords", help: "PDF keywords.") var keywords: String?
    @Flag("no-tags", help: """
        PDF: no structure tree (by default the text blocks are paragraphs in reading order, links follow them, and the \
        catalog names the language: the first text block's lang, else en).
        """)
    var noTags = false
    @Option("pdf-standard", help: Help("""
        PDF: conform to and declare (in XMP metadata) ua-1 (PDF/UA-1; needs --title and tags), a-2b (PDF/A-2b: an sRGB \
        OutputIntent, a document ID, printable links), or both: ua-1,a-2b.
        """, valueName: "ua-1|a-2b|ua-1,a-2b"))
    var standard: String?

    /// The metadata; with SOURCE_DATE_EPOCH set (the reproducible-builds convention) the dates
    /// come from it, so two runs give the same bytes.
    func metadata() throws -> PDFMetadata {
        var pdf = PDFMetadata()
        pdf.title = title
        pdf.author = author
        pdf.subject = subject
        pdf.keywords = keywords
        pdf.tagged = !noTags
        if let standard {
            guard let chosen = PDFStandard.parseList(standard) else {
                throw CLIFailure(message: "--pdf-standard: '\(standard)' is not \(PDFStandard.allCases.map(\.rawValue).joined(separator: ", ")) or a comma-separated list of them")
            }
            pdf.standards = chosen
            if let unmet = pdf.unmetRequirement() { throw CLIFailure(message: "--pdf-standard \(standard): \(unmet)") }
        }
        if let raw = getenv("SOURCE_DATE_EPOCH").map({ String(cString: $0) }), !raw.isEmpty {
            guard let seconds = Int64(raw.trimmed), (0...253_402_300_799).contains(seconds) else {
                throw CLIFailure(message: "SOURCE_DATE_EPOCH: '\(raw)' is not a number of seconds since 1970")
            }
            pdf.created = seconds
        }
        return pdf
    }
}
