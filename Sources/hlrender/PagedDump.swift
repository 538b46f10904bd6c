import Card
import Pages
import Render
import Typeset
import Support

/// The layout dump of paged PDF output: the page size in points, and each line's box on its
/// page (from the page's top-left) with its `page`. Hidden lines of a restricted text are not
/// listed (their widths would tell the hidden text's shape); lines on pages not written neither.
/// Spans are dumped per page as a card's are, each with its `page`: a span cut by a page break
/// is listed on both pages, with the boxes (and highlight path) of its part on that page; a
/// box's `line` indexes the dump's `lines`.
struct PagedDump {
    let paged: PagedText
    let paints: [SpanPaint]
    private var lines: [JSON] = []
    private var spans: [JSON] = []

    init(_ document: PagedPDF) { (paged, paints) = (document.text, document.paint.spans) }

    mutating func add(_ page: PagedText.Page, _ body: PagedText.Body) throws {
        let shown = body.restricted?.restriction.visibleLines ?? body.layout.lines.count
        let firstLine = lines.count
        for line in body.layout.lines.prefix(shown) {
            guard case let .object(members) = LayoutJSON.line(line, fonts: body.layout.fonts, originX: paged.textOrigin.x, originY: paged.textOrigin.y,
                                                              scale: 1) else { continue }
            lines.append(.object(members + [(key: "page", value: .number(Double(page.number)))]))
        }
        let onPage = try LayoutJSON.spans(body.layout, paints: paints, shown: Array(body.layout.lines.prefix(shown)), size: paged.fontSize,
                                      origin: paged.textOrigin, scale: 1, firstLine: firstLine)
        for case let .object(members) in onPage where members.contains(where: { $0.key == "boxes" && $0.value != .array([]) }) {
            spans.append(.object(members + [(key: "page", value: .number(Double(page.number)))]))
        }
    }

    func encoded() -> [UInt8] {
        let size = paged.setup.size
        let restricted: [(String, JSON)] = paged.restriction.map {
            [("restricted_from_line", .number(Double($0.restriction.visibleLines)))]
        } ?? []
        let json = JSON.members([
            ("width", LayoutJSON.px(size.width, 1)), ("height", LayoutJSON.px(size.height, 1)), ("scale", .number(1)),
            ("pages", .number(Double(paged.pages.count))), ("pages_needed", .number(Double(paged.totalPages))),
        ] + restricted + [("lines", .array(lines))] + (spans.isEmpty ? [] : [("spans", .array(spans))]))
        return Array((json.serialized() + "\n").utf8)
    }
}
