import Card
import Flags
import Motion
import FoundationEssentials
import Render
import Typeset
import Support

/// `--format`: the format's name, or any extension an output file may have (`jpg`), as `-o` takes.
extension OutputFormat: FlagValue {
    package init?(flagText: String) {
        guard let format = OutputFormat(rawValue: flagText.lowercased()) ?? OutputFormat(extension: flagText) else { return nil }
        self = format
    }
    package static var expected: String { "one of \(OutputFormat.nameList) (jpeg also as jpg)" }
}

struct RenderCommand: Command {
    static let info = CommandInfo(
        name: "render",
        abstract: "Lay out text and render it to PNG, JPEG, WebP, SVG or PDF.",
        discussion: """
            Exit status: 0 success; with --expect 1 images differ, 2 sizes differ; 3 bad input or failure.
            """,
        examples: [
            "hlrender render --text \"Hello, highlight\" --highlight '#FFE066' -o hello.png",
            "hlrender render --markup 'Meet <b>Ana</b>: <span highlight=\"#FFE066\">one phrase</span>' -o m.webp",
            "hlrender render --markdown-file samples/guide.md --page a5 --page-numbers --title \"A short guide\" -o guide.pdf",
        ])

    @Group var text: TextOptions
    @Group var output: OutputOptions
    @Group("Highlight") var highlight: HighlightOptions
    @Group("Restricted content") var restrict: RestrictOptions
    @Group("Pages (PDF)") var pages: PageFlags
    @Option("expect", help: Help("Compare the PNG render with this golden and exit as `compare` does.", valueName: "golden.png"))
    var expect: String?
    @Group("Comparison (with --expect)") var comparison: CompareOptions
    @Group var limits: InputLimits
    @FlagList(BlockSpec.placementOptions.flagSpecs(["animation"])) var animationEffects: GivenFlags
    @Group("Animation") var animation: AnimationFlags

    /// `--animation`: the text's effects drawn frame by frame into the output's container.
    private func writeAnimation(_ spec: CardSpec, as container: AnimationFormat, fonts: FontContext) throws {
        let engine = Engine(world: limits.world(fonts: fonts, maxPixels: try output.pixelLimit.pixels()))
        let rendered: CardOutput
        do {
            rendered = try animation.animate(spec, engine: engine, as: container, encoding: try output.encoding.options(),
                                             layoutReport: output.dumpLayout != nil)
        } catch let error as CardError {
            throw CLIFailure(message: flagWording(error))
        }
        try CLIOutput.write(rendered.bytes, to: output.output!)
        if let path = output.dumpLayout { try CLIOutput.write(rendered.card.canvasDump(), to: path) }
    }

    func run() throws {
        var timing = AnimationTiming()
        try animation.adjust(&timing)  // checked whatever is drawn
        // Pages are PDF: a dump alone of a paged layout needs no -o.
        let format = pages.isPaged && output.output == nil && output.format == nil
            ? .pdf : try output.resolvedFormat(expecting: expect != nil)
        // Comparison flags are checked even without --expect: a bad value given is a mistake either way.
        _ = try comparison.tolerance()
        if expect != nil, format != .png {
            throw CLIFailure(message: "--expect compares PNG renders; the output format is \(format.rawValue)")
        }
        let pageSetup = try pages.setup()
        if pageSetup != nil { try checkPaged(format: format) }
        try output.checkWritable()
        let input = text.isRich ? nil : try InputText.read(text: text.text, file: text.textFile, limit: limits.text)
        var settings = try text.settings(for: input, limit: limits.text)
        try highlight.apply(to: &settings)
        try restrict.apply(to: &settings)
        let fonts = try text.font.fonts()
        if let pageSetup { return try runPaged(settings: settings, setup: pageSetup, fonts: fonts) }
        var spec = try output.card(.text(settings, fit: try output.fitSpec()), highlighted: settings.fillsHighlight)
        do {
            try spec.applyToSoleBlock { try BlockSpec.placementOptions.apply(animationEffects, to: &$0) }
        } catch {
            throw CLIFailure(message: "\(error)")
        }
        if expect == nil, output.format == nil, let container = AnimationFlags.format(output: output.output, animated: spec.isAnimated) {
            return try writeAnimation(spec, as: container, fonts: fonts)
        }
        let golden = try expect.map { try Posix.readFile($0, as: "golden", limit: limits.image) }
        let draw = output.output != nil || golden != nil
        let rendered = try renderOneBlock(spec, fonts: fonts, limits: limits, output: output, format: format, draw: draw)
        let card = rendered.card
        warnAboutDroppedMarks(count: card.droppedMarks)
        output.warnIfCutOff(card)
        if output.output != nil { warnIfFlattened(format: format, opaque: rendered.opaque) }
        let bytes = draw ? rendered.bytes : nil
        // Files are written only once everything has succeeded, the dump after the image.
        if let path = output.output, let bytes { try CLIOutput.write(bytes, to: path) }
        if let path = output.dumpLayout { try CLIOutput.write(card.canvasDump(), to: path) }
        if let golden, let bytes {
            let status = try runComparison(expected: golden, actual: bytes, names: (expect!, "render"), options: comparison,
                                           maxPixels: try output.pixelLimit.pixels())
            if status != ExitStatus.success { throw ExitCode(status) }
        }
    }
}
