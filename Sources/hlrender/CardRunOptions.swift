import ArgumentParser
import Card

/// What `card` and `batch` share: the fonts, the limits and the encoders, and the card
/// resources built from them once per run.
struct CardRunOptions: ParsableArguments {
    @Option(help: "Refuse canvases and images with more pixels than this.") var maxPixels: Int = 100_000_000
    @Option(help: ArgumentHelp("A folder of fonts to load before the pinned ones (repeatable).", valueName: "dir"))
    var fontDir: [String] = []
    @Flag(help: "Use only the pinned fonts (and --font-dir), not the system's.") var noSystemFonts = false
    @OptionGroup(title: "Encoding") var encoding: EncodeFlags
    @OptionGroup(title: "PDF") var pdf: PDFFlags
    @OptionGroup var limits: InputLimits

    /// Fonts loaded once; files read with the input bound and named in errors.
    func resources() throws -> CardResources {
        guard maxPixels > 0 else { throw CLIFailure(message: "--max-pixels must be positive, got \(maxPixels)") }
        let library = try FontSetup.library(extraDirectories: fontDir, systemFonts: !noSystemFonts)
        let limit = limits.image
        return CardResources(library: library, maxPixels: maxPixels) { path in
            try Posix.readFile(path, as: "file", limit: limit)
        }
    }
}
