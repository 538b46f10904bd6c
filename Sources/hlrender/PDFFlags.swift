import Flags
import Glibc
import Render
import Support
import PDFPost

/// PDF document information, tags and standards (the PDF option table's rows, as the service's
/// query parameters are), and SOURCE_DATE_EPOCH for reproducible files.
struct PDFFlags: FlagGroup {
    @FlagList(PDFMetadata.options.flagSpecs(["title", "author", "subject", "keywords", "no-tags", "pdf-standard"]))
    var given: GivenFlags

    /// The metadata; with SOURCE_DATE_EPOCH set (the reproducible-builds convention) the dates
    /// come from it, so two runs give the same bytes. A standard's needs are checked here
    /// unless a card's own `pdf` settings join these first (the engine checks them then).
    func metadata(checkingNeeds: Bool = true) throws -> PDFMetadata {
        var pdf = PDFMetadata()
        try PDFMetadata.options.apply(given, to: &pdf)
        if checkingNeeds, let unmet = pdf.unmetRequirement() {
            let standard = given.pairs.last { $0.name == "pdf-standard" }?.value ?? ""
            throw CLIFailure(message: "--pdf-standard \(standard): \(unmet)")
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
