import Card
import Pages
import Typeset
import Support

/// The layout dump of paged PDF output: the page size in points, and each line's box on its
/// page (from the page's top-left) with its `page`. Hidden lines of a restricted text are not
/// listed (their widths would tell the hidden text's shape); lines on pages not written neither.
struct PagedDump {
    let paged: PagedText
    private var lines: [JSON] = []

    init(_ paged: PagedText) { self.paged = paged }

    mutating func add(_ page: PagedText.Page, _ body: PagedText.Body) {
        let shown = body.restricted?.restriction.visibleLines ?? body.layout.lines.count
        for line in body.layout.lines.prefix(shown) {
            guard case let .object(members) = LayoutJSON.line(line, originX: paged.textOrigin.x, originY: paged.textOrigin.y,
                                                              scale: 1) else { continue }
            lines.append(.object(members + [(key: "page", value: .number(Double(page.number)))]))
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
        ] + restricted + [("lines", .array(lines))])
        return Array((json.serialized() + "\n").utf8)
    }
}
