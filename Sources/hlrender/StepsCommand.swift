import Flags
import Card
import FoundationEssentials
import Render
import Steps
import Typeset
import Support


struct StepsCommand: Command {
    static let info = CommandInfo(
        name: "steps",
        abstract: "Render a compact step indicator: dots in a column, texts alternating left and right.",
        discussion: """
            Each text is centred on its dot; neighbours are packed as tightly as dot_i.bottom <= \
            text_{i+1}.top and text_i.bottom <= dot_{i+1}.top allow, so texts on opposite sides may \
            overlap vertically. Exit status: 0 success, 3 bad input or failure.
            """)

    @Option("steps-file", help: Help("Read steps from a UTF-8 file, one per line (blank lines are not steps).", valueName: "path"))
    var stepsFile: String?
    @Option("step", help: Help("A step's text (repeatable).", valueName: "text"))
    var steps: [String] = []
    @Option("width", help: "Canvas width in px (default 1080, or the width of --canvas).") var width: Double?
    @Option("column", help: "x of the dot column in px from the canvas's left edge (default: the canvas centre).") var column: Double?
    @FlagList(modelFlags(["dot-size", "dot-color", "gap", "current", "connector", "first-side", "steps-markup"]))
    var given: GivenFlags
    // Applied as the block key `align`, with its own help: the default here is towards the dots.
    @Option("align", help: "Text alignment in each column: left, center, right, start, end or justify (default: towards the dots).")
    var align: String?

    @Group var font: FontOptions
    @Group var output: OutputOptions
    @Group("Highlight") var highlight: HighlightOptions
    @Group var limits: InputLimits
    @Group var links: LinkSchemeFlags

    func run() throws {
        OneShot.declare()  // one image, then exit: big buffers in huge pages
        let format = try output.resolvedFormat()
        try output.checkWritable()
        // The flags as a steps block's settings, through the option table; the card library
        // decides the geometry (the dot column included: a canvas x here, a block x in a card).
        var settings = BlockSettings()
        settings.linkSchemes = try links.schemes()
        try applyFlags(given, to: &settings)
        try applyFlags([("align", align)], to: &settings)
        try OptionModel.named("steps")!.apply(.json(.array(try readSteps().map(JSONValue.string))), to: &settings)
        try font.apply(to: &settings)
        try highlight.apply(to: &settings)
        var spec = try output.card(.steps(settings, fit: try output.fitSpec()), width: width ?? 1080, widthFlag: "--width", highlighted: settings.fillsHighlight)
        if let column {
            do { try spec.placeStepsColumn(canvasX: column) } catch { throw CLIFailure(message: flagWording(error)) }
        }
        let fonts = try font.fonts()
        let rendered = try renderOneBlock(spec, fonts: fonts, limits: limits, output: output, format: format, draw: output.output != nil)
        let card = rendered.card
        warnAboutDroppedMarks(count: card.droppedMarks)
        output.warnIfCutOff(card)
        if output.output != nil { warnIfFlattened(format: format, opaque: rendered.opaque) }
        let bytes = output.output.map { _ in rendered.bytes }
        // Files are written only once everything has succeeded, the dump after the image.
        if let path = output.output, let bytes { try OutputFile.write(bytes, to: path) }
        if let path = output.dumpLayout { try OutputFile.write(card.canvasDump(), to: path) }
    }

    private func readSteps() throws -> [String] {
        if stepsFile != nil && !steps.isEmpty { throw CLIFailure(message: "give either --steps-file or --step, not both") }
        var texts = steps
        if let stepsFile {
            let text = try InputText.read(text: nil, file: stepsFile, limit: limits.text, what: "steps file")
            texts = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
                .filter { !$0.allSatisfy(\.isWhitespace) }
        }
        guard !texts.isEmpty else { throw CLIFailure(message: "no steps: give --steps-file PATH or --step TEXT") }
        return texts
    }
}
