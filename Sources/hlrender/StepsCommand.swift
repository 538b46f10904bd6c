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
            """,
        examples: [
            "hlrender steps --step \"Sign up\" --step \"Pick a plan\" --highlight '#FFD43B' -o steps.png",
            "hlrender steps --steps-file samples/steps.txt --canvas 1080xauto --connector --current 2 -o steps.png",
        ])

    @Option("steps-file", help: Help("Read steps from a UTF-8 file, one per line (blank lines are not steps).", valueName: "path"))
    var stepsFile: String?
    @Option("step", help: Help("A step's text (repeatable).", valueName: "text"))
    var steps: [String] = []
    // The canvas is 1080 px wide unless --canvas says otherwise; the block is the canvas inside
    // --margin, and `column` is an x in it, as in a card.
    @FlagList(modelFlags(["column", "dot-size", "dot-color", "gap", "current", "connector", "first-side", "steps-markup", "align"]))
    var given: GivenFlags

    @Group var font: FontOptions
    @Group var output: OutputOptions
    @Group("Highlight") var highlight: HighlightOptions
    @Group var limits: InputLimits
    @Group var links: LinkSchemeFlags

    func run() throws {
        let format = try output.resolvedFormat()
        try output.checkWritable()
        // The flags as a steps block's settings, through the option table; the card library
        // decides the geometry.
        var settings = BlockSettings()
        settings.linkSchemes = try links.schemes()
        try applyFlags(given, to: &settings)
        try OptionModel.stepsRow.apply(.json(.array(try readSteps().map(JSONValue.string))), to: &settings)
        try font.apply(to: &settings)
        try highlight.apply(to: &settings)
        let spec = try output.card(.steps(settings, fit: try output.fitSpec()), width: 1080, highlighted: settings.fillsHighlight)
        let fonts = try font.fonts()
        let rendered = try renderOneBlock(spec, fonts: fonts, limits: limits, output: output, format: format, draw: output.output != nil)
        let card = rendered.card
        warnAboutDroppedMarks(count: card.droppedMarks)
        output.warnIfCutOff(card)
        if output.output != nil { warnIfFlattened(format: format, opaque: rendered.opaque) }
        let bytes = output.output.map { _ in rendered.bytes }
        // Files are written only once everything has succeeded, the dump after the image.
        if let path = output.output, let bytes { try CLIOutput.write(bytes, to: path) }
        if let path = output.dumpLayout { try CLIOutput.write(card.canvasDump(), to: path) }
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
