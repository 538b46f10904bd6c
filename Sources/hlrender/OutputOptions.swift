import ArgumentParser
import Card
import FoundationEssentials
import Render
import Support

/// Options that say where the image goes and what the canvas looks like.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output file: .png, .pdf, .jpg or .webp.", valueName: "path"))
    var output: String?
    @Option(help: "png, pdf, jpeg or webp (default: from the output's extension).") var format: OutputFormat?
    @OptionGroup(title: "Encoding") var encoding: EncodeFlags
    @OptionGroup(title: "PDF") var pdf: PDFFlags
    @Option(help: "Background colour, alpha allowed, or transparent (default white; transparent with a highlight, so the caption is an overlay).")
    var background: String?
    @Option(help: "Space around the text in px: the canvas is the text plus this margin, or with --canvas the text wraps inside it.") var margin: Double = 32
    @Option(help: ArgumentHelp("A fixed canvas in px, text block centred.", valueName: "WxH")) var canvas: String?
    @Option(help: "Output scale: 1, 2 or 3 (@2x, @3x) with the same layout.") var scale: Double = 1
    @Option(help: "Refuse canvases with more output pixels than this.") var maxPixels: Int = 100_000_000
    @Option(help: ArgumentHelp("Write the layout as JSON to a file, or - for standard output.", valueName: "path"))
    var dumpLayout: String?

    func resolvedFormat(expecting: Bool = false) throws -> OutputFormat {
        try Self.format(output: output, forced: format, otherwise: dumpLayout != nil || expecting)
    }

    /// The forced format, else the output's extension's; with no output, PNG when something
    /// else (a dump, --expect) is asked for.
    static func format(output: String?, forced: OutputFormat?, otherwise: Bool,
                       alternatives: String = "--dump-layout or --expect") throws -> OutputFormat {
        if let forced { return forced }
        guard let output else {
            guard otherwise else {
                throw CLIFailure(message: "no output: give -o FILE.png (.pdf, .jpg, .webp), \(alternatives)")
            }
            return .png
        }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard let format = OutputFormat(extension: ext) else {
            throw CLIFailure(message: "output '\(output)': unknown extension '.\(ext)' (use .png, .pdf, .jpg or .webp, or --format)")
        }
        return format
    }

    func checkWritable() throws {
        if let output { try OutputFile.checkWritable(output) }
        if let dumpLayout { try OutputFile.checkWritable(dumpLayout) }
    }

    /// How the card becomes a file.
    func renderOptions(format: OutputFormat, scale: Double) throws -> RenderOptions {
        var options = RenderOptions()
        options.format = format
        options.encoding = try encoding.options()
        options.pdf = try pdf.metadata()
        options.scale = scale
        guard maxPixels > 0 else { throw CLIFailure(message: "--max-pixels must be positive, got \(maxPixels)") }
        options.maxPixels = maxPixels
        return options
    }

    /// --background, else white (transparent under a filled highlight: the caption is an overlay).
    func backgroundColor(highlighted: Bool) throws -> Color {
        try background.map { try parseColor($0, option: "--background") } ?? (highlighted ? .transparent : .white)
    }

    /// A one-block card: --canvas fixes its size, else `width`/`height` (nil fits that side to the
    /// block); --margin pads it, --scale scales it.
    /// `widthFlag` names the flag that set `width`, for errors.
    func card(_ block: BlockKind, width: Double? = nil, widthFlag: String = "--canvas", height: Double? = nil,
              highlighted: Bool) throws -> CardSpec {
        let size = try canvas.map(parseCanvas) ?? (width, height)
        let background = try backgroundColor(highlighted: highlighted)
        do {
            return try CardSpec(width: size.0, height: size.1, scale: scale, padding: margin, background: .color(background),
                                blocks: [BlockSpec(block)])
        } catch let error as CardError {
            throw CLIFailure(message: flagWording(error, size: canvas == nil ? widthFlag : "--canvas"))
        }
    }

    private func parseCanvas(_ text: String) throws -> (Double?, Double?) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
            throw CLIFailure(message: "--canvas: '\(text)' is not WIDTHxHEIGHT with positive numbers")
        }
        return (w, h)
    }
}
