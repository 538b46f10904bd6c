import ArgumentParser
import FoundationEssentials
import Render
import Typeset
import Support

extension Alignment: ExpressibleByArgument {}
extension BaseDirection: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lay out text and render it to PNG, JPEG, WebP or PDF.",
        discussion: """
            Exit status: 0 success; with --expect 1 images differ, 2 sizes differ; 3 bad input or failure.
            """)

    @OptionGroup var text: TextOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup(title: "Highlight") var highlight: HighlightOptions
    @OptionGroup(title: "Restricted content") var restrict: RestrictOptions
    @OptionGroup(title: "Pages (PDF)") var pages: PageFlags
    @Option(help: ArgumentHelp("Compare the PNG render with this golden and exit as `compare` does.", valueName: "golden.png"))
    var expect: String?
    @OptionGroup(title: "Comparison (with --expect)") var comparison: CompareOptions
    @OptionGroup var limits: InputLimits

    func run() throws {
        // Pages are PDF: a dump alone of a paged layout needs no -o.
        let format = pages.page != nil && output.output == nil && output.format == nil
            ? .pdf : try output.resolvedFormat(expecting: expect != nil)
        // Comparison flags are checked even without --expect: a bad value given is a mistake either way.
        _ = try comparison.tolerance()
        if expect != nil, format != .png {
            throw CLIFailure(message: "--expect compares PNG renders; the output format is \(format.rawValue)")
        }
        let pageSetup = try pages.setup()
        if pageSetup != nil { try checkPaged(format: format) }
        try output.checkWritable()
        let input = try InputText.read(text: text.text, file: text.textFile, limit: limits.text)
        let restriction = try restrict.restriction()
        if let pageSetup { return try runPaged(input, setup: pageSetup, restriction: restriction) }
        let (layout, style, typesetter) = try text.typeset(input)
        warnAboutDroppedMarks([layout])
        let settings = try highlight.settings()
        let paint = settings.highlightPaint(fontSize: style.size)
        var options = try output.renderOptions(format: format, highlighted: paint?.fill != nil)
        options.highlight = paint
        options.shadow = settings.shadow
        options.stroke = settings.stroke
        let restricted = try restriction.map { restriction, mode, seed in
            mode == .scramble
                ? try RestrictedText(scrambled: typesetter.scrambled(layout, fromLine: restriction.visibleLines, seed: seed),
                                     restriction: restriction)
                : RestrictedText(realGlyphs: layout, restriction: restriction)
        }
        options.textColor = try text.font.textColor(highlight: options.highlight, background: options.background)
        if output.output != nil { warnIfFlattened(format: format, opaque: options.background.alpha >= 1) }
        let geometry = try Renderer.geometry(for: layout, options: options)
        let golden = try expect.map { try Posix.readFile($0, as: "golden", limit: limits.image) }
        let visible = restricted?.restriction.visibleLines
        let dump = output.dumpLayout.map { _ in layoutReport(layout, geometry: geometry, options: options, visible: visible) }
        let bytes = output.output != nil || golden != nil
            ? try restricted.map { try Renderer.render($0, options: options) } ?? Renderer.render(layout, options: options) : nil
        // Files are written only once everything has succeeded, the dump after the image.
        if let path = output.output, let bytes { try OutputFile.write(bytes, to: path) }
        if let path = output.dumpLayout, let dump { try OutputFile.write(dump, to: path) }
        if let golden, let bytes {
            let status = try runComparison(expected: golden, actual: bytes, names: (expect!, "render"), options: comparison,
                                           maxPixels: options.maxPixels)
            if status != ExitStatus.success { throw ExitCode(status) }
        }
    }

    private func layoutReport(_ layout: Layout, geometry: CanvasGeometry, options: RenderOptions, visible: Int?) -> [UInt8] {
        var report = LayoutDump(layout: layout, geometry: geometry, scale: options.scale, hiddenFrom: visible)
        if let paint = options.highlight {
            // Restricted: the outline of the visible lines only (the whole one would give away
            // the hidden lines' widths).
            var shown = layout
            if let visible { shown.lines = Array(layout.lines.prefix(visible)) }
            let outline = shown.highlightOutline(paint.style)
            let s = options.scale
            report.extra.append(("highlight", .members([
                ("path", .string(outline.svgPath(scale: s, dx: geometry.originX * s, dy: geometry.originY * s))),
                ("contours", .number(Double(outline.contours.count))),
            ])))
        }
        return report.encoded()
    }
}
