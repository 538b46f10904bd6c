import Flags
import Batch
import Card
import Render
import Support
import Worker

/// Where SVG pictures and web fonts are decoded (librsvg and FreeType reading a file a spec or
/// a row names).
enum DecoderPlace: String, CaseIterable, FlagValue {
    /// A process of this binary with CPU-time and address-space limits: a hostile file fails
    /// its own card, the run goes on.
    case worker
    /// This process: no process started per picture.
    case here
}

/// What `card` and `batch` share: the fonts, the limits and the encoders, and the engine
/// built from them once per run.
struct CardRunOptions: FlagGroup {
    @Group var pixelLimit: PixelLimitFlags
    @Group var folders: FontFolderFlags
    @Group("Encoding") var encoding: EncodeFlags
    @Group("PDF") var pdf: PDFFlags
    @Option("pdf", help: Help("Also put every card on its own page of this PDF (a print proof, vector text kept).", valueName: "proofs.pdf"))
    var proofs: String?
    @Group var limits: InputLimits
    @Group var links: LinkSchemeFlags
    @Option("decoders", help: Help("Where SVG pictures and web fonts (WOFF, WOFF2) a spec names are decoded: worker (a process of this binary with a CPU-time and memory limit, so a hostile file fails its own card and the run goes on) or here (this process). Default: worker for batch, here for card.", valueName: "worker|here"))
    var decoders: DecoderPlace?

    /// CPU seconds a decoder worker may use for one picture.
    static let decoderSeconds = 30

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

    /// The engine in the run's world: fonts loaded once, files read with the input bound and
    /// named in errors, the link policy. `oneShot`: the command renders one card and exits (its
    /// faces are opened ahead). `decoders`: where SVG pictures are decoded unless `--decoders` says.
    func engine(systemFonts: Bool = true, oneShot: Bool = false, decoders: DecoderPlace = .here) throws -> Engine {
        let maxPixels = try pixelLimit.pixels()
        var isolation = Isolation.inProcess
        if (self.decoders ?? decoders) == .worker {
            guard let binary = Posix.executablePath() else { throw CLIFailure(message: "--decoders worker: this binary's path cannot be read (/proc/self/exe)") }
            isolation = DecoderWorker(executable: binary, seconds: Self.decoderSeconds).isolation
        }
        let fonts = try folders.fonts(systemFonts: systemFonts, prefetchFaces: oneShot, isolation: isolation)
        var world = limits.world(fonts: fonts, maxPixels: maxPixels)
        world.linkSchemes = try links.schemes()
        world.isolation = isolation
        return Engine(world: world)
    }
}
