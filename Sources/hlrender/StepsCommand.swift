import ArgumentParser
import Card
import FoundationEssentials
import Render
import Steps
import Typeset
import Support

extension Side: ExpressibleByArgument {}

struct StepsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "Render a compact step indicator: dots in a column, texts alternating left and right.",
        discussion: """
            Each text is centred on its dot; neighbours are packed as tightly as dot_i.bottom <= \
            text_{i+1}.top and text_i.bottom <= dot_{i+1}.top allow, so texts on opposite sides may \
            overlap vertically. Exit status: 0 success, 3 bad input or failure.
            """)

    @Option(help: ArgumentHelp("Read steps from a UTF-8 file, one per line (blank lines are not steps).", valueName: "path"))
    var stepsFile: String?
    @Option(name: .customLong("step"), help: ArgumentHelp("A step's text (repeatable).", valueName: "text"))
    var steps: [String] = []
    @Option(help: "Canvas width in px (default 1080, or the width of --canvas).") var width: Double?
    @Option(help: "x of the dot column in px (default: the canvas centre).") var column: Double?
    @Option(help: "Dot diameter in px (default 0.5em).") var dotSize: Double?
    @Option(help: "Dot colour (default black or white, by contrast with the background).") var dotColor: String?
    @Option(help: "Space between a dot and its text in px (default 0.5em).") var gap: Double?
    @Option(help: ArgumentHelp("The current step, from 1: earlier dots done, this one emphasised, later ones hollow.", valueName: "k"))
    var current: Int?
    @Flag(help: "Draw a line through the dots.") var connector = false
    @Option(help: "Side of the first step's text: left or right (default left; right for right-to-left text).")
    var firstSide: Side?
    @Option(help: "Text alignment in each column: left, center, right, start, end or justify (default: towards the dots).")
    var align: Alignment?

    @OptionGroup var font: FontOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup(title: "Highlight") var highlight: HighlightOptions
    @OptionGroup var limits: InputLimits

    func run() throws {
        let format = try output.resolvedFormat()
        try output.checkWritable()
        let texts = try readSteps()
        let (typesetter, base) = try font.typesetter()
        let size = base.size
        let effects = try highlight.settings()
        let paint = effects.highlightPaint(fontSize: size)
        var options = try output.renderOptions(format: format, highlighted: paint?.fill != nil)
        options.highlight = paint
        options.textColor = try font.textColor(highlight: options.highlight, background: options.background)

        let canvasWidth = options.canvas?.width ?? width ?? 1080
        try positive(canvasWidth, "--width")
        if let dotSize { try positive(dotSize, "--dot-size") }
        if let gap, !(gap.isFinite && gap >= 0) { throw CLIFailure(message: "--gap must be zero or more, got \(gap)") }
        if let current, !(1...texts.count).contains(current) {
            throw CLIFailure(message: "--current must be between 1 and \(texts.count) (the number of steps), got \(current)")
        }
        // The flags as block settings; the block (the library) decides the geometry.
        var settings = BlockSettings()
        settings.dotSize = dotSize
        settings.gap = gap
        settings.column = column.map { $0 - options.margin }
        settings.current = current
        settings.connector = connector
        settings.firstSide = firstSide
        settings.align = align
        settings.direction = font.baseDirection
        let block: StepsBlock
        do {
            block = try StepsBlock.layout(texts, settings: settings, size: size, width: canvasWidth - 2 * options.margin,
                                          highlight: paint, typesetter: typesetter,
                                          style: { width, alignment in
                                              var style = base
                                              style.width = width
                                              style.alignment = alignment
                                              return style
                                          })
        } catch let error as OptionError {
            throw CLIFailure(message: error.message)
        }
        warnAboutDroppedMarks(block.layouts)
        let canvasHeight = options.canvas?.height ?? block.height + 2 * options.margin
        let top = options.canvas == nil ? options.margin : (canvasHeight - block.height) / 2
        let dotColour = try dotColor.map { try parseColor($0, option: "--dot-color") }
            ?? contrasting(options.background, over: .white)
        let items = try block.items(x: options.margin, y: top, paint: TextPaint(color: options.textColor, highlight: paint, shadow: effects.shadow, stroke: effects.stroke),
                                dotColor: dotColour)
        if output.output != nil { warnIfFlattened(format: format, opaque: options.background.alpha >= 1) }
        let scene = Scene(width: canvasWidth, height: canvasHeight, background: .color(options.background), items: items)

        let dump = Array((stepsDump(scene, block, x: options.margin, y: top, scale: options.scale).serialized() + "\n").utf8)
        let bytes = try output.output.map { _ in try Renderer.render(scene, options: options) }
        // Files are written only once everything has succeeded, the dump after the image.
        if let path = output.output, let bytes { try OutputFile.write(bytes, to: path) }
        if let path = output.dumpLayout { try OutputFile.write(dump, to: path) }
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

    private func stepsDump(_ scene: Scene, _ block: StepsBlock, x: Double, y: Double, scale: Double) -> JSON {
        .members([
            ("width", .number((scene.width * scale).rounded(.up))), ("height", .number((scene.height * scale).rounded(.up))),
            ("scale", .number(scale)), ("steps", .array(block.dump(x: x, y: y, scale: scale))),
        ])
    }
}
