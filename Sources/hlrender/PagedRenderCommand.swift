import Card
import Pages
import Render
import Typeset
import Support

/// `render --page`: the text wrapped to the page and flowed across as many pages as it needs.
extension Render {
    func checkPaged(format: OutputFormat) throws {
        guard format == .pdf else { throw CLIFailure(message: "--page makes PDF pages; the output format is \(format.rawValue)") }
        guard expect == nil else { throw CLIFailure(message: "--expect compares PNG renders, not pages") }
        guard output.canvas == nil else { throw CLIFailure(message: "--canvas and --page both set the size: give one") }
        guard output.scale == 1 else { throw CLIFailure(message: "--scale is for images; --page sets the PDF's size") }
    }

    func runPaged(_ input: String, setup: PageSetup, restriction: (Restriction, RestrictMode, UInt64)?) throws {
        let (typesetter, base) = try text.style()
        let settings = try highlight.settings()
        let highlightPaint = settings.highlightPaint(fontSize: base.size)
        var style = base
        let room = PagedText.wrapWidth(setup, highlight: highlightPaint)
        style.width = min(style.width ?? room, room)
        let pageRestriction = restriction.map { PageRestriction($0.0, scrambleSeed: $0.1 == .scramble ? $0.2 : nil) }
        let decorations = setup.header != nil || setup.pageNumbers != nil
            ? PageDecorations(typesetter: typesetter, bodyStyle: style) : nil
        var options = try output.renderOptions(format: .pdf, highlighted: false)
        let paged: PagedText
        do {
            paged = try PagedText(input, typesetter: typesetter, style: style, setup: setup, highlight: highlightPaint,
                                  restriction: pageRestriction, decorationHeight: try decorations?.lineHeight() ?? 0)
        } catch let error as PageError {
            throw CLIFailure(message: error.description)
        }
        options.textColor = try text.font.textColor(highlight: highlightPaint, background: options.background)
        let paint = TextPaint(color: options.textColor, highlight: highlightPaint, shadow: settings.shadow, stroke: settings.stroke)
        let document = PagedPDF(text: paged, paint: paint, background: options.background, decorations: decorations)
        var dump = output.dumpLayout.map { _ in PagedDump(paged) }
        let visit: (PagedText.Page, PagedText.Body) -> Void = { page, body in dump?.add(page, body) }
        let bytes = output.output != nil ? try document.render(options: options, visit: visit) : nil
        if bytes == nil { try paged.forEachPage(visit) }
        warnAboutDroppedMarks(count: paged.droppedMarks)
        if let path = output.output, let bytes { try OutputFile.write(bytes, to: path) }
        if let path = output.dumpLayout, let dump { try OutputFile.write(dump.encoded(), to: path) }
    }
}
