import Flags
import Batch
import Card
import Render
import Support

/// What `card` and `batch` share: the fonts, the limits and the encoders, and the card
/// resources built from them once per run.
struct CardRunOptions: FlagGroup {
    @Group var pixelLimit: PixelLimitFlags
    @Group var folders: FontFolderFlags
    @Group("Encoding") var encoding: EncodeFlags
    @Group("PDF") var pdf: PDFFlags
    @Option("pdf", help: Help("Also put every card on its own page of this PDF (a print proof, vector text kept).", valueName: "proofs.pdf"))
    var proofs: String?
    @Group var limits: InputLimits
    @Group var links: LinkSchemeFlags

    /// The proof sheet --pdf asks for, checked writable before anything is rendered.
    func proofSheet(fonts: FontContext) throws -> ProofSheet? {
        guard let proofs else { return nil }
        guard OutputFormat(extension: OutputFile.split(proofs).1.split(separator: ".").last.map(String.init) ?? "") == .pdf else {
            throw CLIFailure(message: "--pdf: '\(proofs)' must end in .pdf")
        }
        try OutputFile.checkWritable(proofs)
        var options = RenderOptions()
        options.pdf = try pdf.metadata()
        options.maxPixels = try pixelLimit.pixels()
        return try ProofSheet(path: proofs, options: options, fonts: fonts, describe: describe)
    }

    /// Fonts loaded once; files read with the input bound and named in errors. `oneShot`: the
    /// command renders one card and exits (see `RenderOptions.oneShot`).
    func resources(systemFonts: Bool = true, oneShot: Bool = false) throws -> CardResources {
        let maxPixels = try pixelLimit.pixels()
        let fonts = try folders.fonts(systemFonts: systemFonts, prefetchFaces: oneShot)
        let limit = limits.image
        var resources = CardResources(fonts: fonts, maxPixels: maxPixels) { path in
            try Posix.readFile(path, as: "file", limit: limit)
        }
        resources.linkSchemes = try links.schemes()
        resources.oneShot = oneShot
        return resources
    }
}
