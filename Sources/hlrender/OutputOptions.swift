import Flags
import Card
import FoundationEssentials
import Render
import Support

/// Where a render goes: the file, its format, the layout dump (`render`, `steps`, `card`).
struct OutputTarget: FlagGroup {
    @Option("output", short: "o", help: Help("Output file: \(OutputFormat.extensionList); - for standard output.", valueName: "path"))
    var output: String?
    @Option("format", help: Help("\(OutputFormat.nameList) (default: from the output's extension).", valueName: "format")) var format: OutputFormat?
    @Option("dump-layout", help: Help("Write the layout as JSON to a file, or - for standard output.", valueName: "path"))
    var dumpLayout: String?

    /// Refuses an output or dump that cannot be written, before any work.
    func checkWritable() throws {
        for path in [output, dumpLayout].compactMap({ $0 }) { try OutputFile.checkWritable(path) }
    }
}

/// Options that say where the image goes and what the canvas looks like.
struct OutputOptions: FlagGroup {
    @Group var target: OutputTarget
    @Group("Encoding") var encoding: EncodeFlags
    @Group("PDF") var pdf: PDFFlags
    @FlagList(CardSpec.options.flagSpecs(["background"])) var background: GivenFlags
    @FlagList(OutputOptions.cardRows.flagSpecs(["margin", "canvas"])) var canvasFlags: GivenFlags
    @Flag("fit", help: "Shrink the text until it fits a fixed --canvas inside the margin (as a card block's fit) instead of cutting it off with a warning.")
    var fit = false
    @FlagList(OutputOptions.cardRows.flagSpecs(["scale"])) var scaleFlag: GivenFlags
    @Group var pixelLimit: PixelLimitFlags

    var output: String? { target.output }
    var format: OutputFormat? { target.format }
    var dumpLayout: String? { target.dumpLayout }

    /// The card rows a one-block command takes under names of its own: `--canvas` is the
    /// card's `size` and `--margin` its `padding` (32 here, not a card's 64); `--scale` is
    /// `scale` itself.
    static let cardRows: [OptionDefinition<CardSpec>] = [
        CardSpec.sizeRow.renamed("canvas", help: "A fixed canvas in px (a side may be auto), the block centred."),
        CardSpec.paddingRow.renamed("margin", help: "Space around the text in px (default 32): the canvas is the text plus this margin, or with --canvas the text wraps inside it."),
        CardSpec.scaleRow,
    ]

    /// `--canvas` as given.
    var canvas: String? { canvasFlags.pairs.last { $0.name == "canvas" }?.value }
    /// `--scale` as given.
    var scale: String? { scaleFlag.pairs.last?.value }

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
                throw CLIFailure(message: "no output: give -o FILE ending in \(OutputFormat.extensionList) (- for standard output), \(alternatives)")
            }
            return .png
        }
        // Standard output, a device or a pipe: PNG unless --format names another.
        if output == "-" || Posix.kind(output) == .other { return .png }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard !ext.isEmpty else {
            throw CLIFailure(message: "output '\(output)' has no extension: name it \(output).png (or \(OutputFormat.extensionList)), or give --format")
        }
        guard let format = OutputFormat(extension: ext) else {
            throw CLIFailure(message: "output '\(output)': unknown extension '.\(ext)' (use \(OutputFormat.extensionList), or --format)")
        }
        return format
    }

    func checkWritable() throws { try target.checkWritable() }

    /// How the card becomes a file.
    func renderOptions(format: OutputFormat, scale: Double) throws -> RenderOptions {
        var options = RenderOptions()
        options.format = format
        options.encoding = try encoding.options()
        options.pdf = try pdf.metadata()
        options.scale = scale
        options.maxPixels = try pixelLimit.pixels()
        return options
    }

    /// --background through the card's row, else white (transparent under a filled highlight:
    /// the caption is an overlay).
    func backgroundColor(highlighted: Bool) throws -> Color {
        guard let given = background.pairs.last?.value else { return highlighted ? .transparent : .white }
        do {
            return try CardSpec.colorBackground(.text(given))
        } catch let error as OptionError {
            throw CLIFailure(message: "--background: \(error.message)")
        }
    }

    /// The block's fit: to the canvas with --fit, which needs --canvas.
    func fitSpec() throws -> FitSpec? {
        guard fit else { return nil }
        guard canvas != nil else { throw CLIFailure(message: "--fit shrinks the text to a fixed canvas: give --canvas WxH") }
        return FitSpec()
    }

    /// Says so when text is cut off at the canvas's edge (a fixed --canvas too small for it).
    func warnIfCutOff(_ card: BuiltCard) {
        if card.cutsOffText && !fit {
            warn(canvas.map { "the text does not fit the \($0) canvas and is cut off: give --fit to shrink it, or a larger --canvas" }
                 ?? "the text is wider than the canvas made for it and is cut off at its edge: give a larger --width")
        }
    }

    /// A one-block card: `width`/`height` (nil fits that side to the block; `widthFlag` names the
    /// flag that set the width), then --canvas, --scale and --margin through the card options.
    func card(_ block: BlockKind, width: Double? = nil, widthFlag: String = "--canvas", height: Double? = nil,
              highlighted: Bool) throws -> CardSpec {
        var spec: CardSpec
        do {
            spec = try CardSpec(width: width, height: height, background: .color(try backgroundColor(highlighted: highlighted)),
                                blocks: [BlockSpec(block)])
        } catch let error as CardError {
            throw CLIFailure(message: flagWording(error, size: widthFlag))
        }
        // Through the card's rows under these flags' names (the margin's own default first).
        do {
            try Self.cardRows.apply(GivenFlags([("margin", "32")] + canvasFlags.pairs + scaleFlag.pairs), to: &spec)
        } catch {
            throw CLIFailure(message: error.description)
        }
        if fit { spec.fitBlocksToCanvas() }
        return spec
    }
}
