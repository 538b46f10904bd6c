import Card
import Render
import Typeset
import Support

/// The `--dump-layout` JSON (a contract, see docs/ARCHITECTURE.md): canvas size, lines with UTF-8 byte
/// ranges and boxes, all lengths in output pixels.
struct LayoutDump {
    var layout: Layout
    var geometry: CanvasGeometry
    var scale: Double
    /// Restricted mode: lines from this index on are hidden (reported only as one region).
    var hiddenFrom: Int?
    /// Extra top-level members (the highlight, restricted mode) in order.
    var extra: [(String, JSON)] = []

    var json: JSON {
        // Hidden lines are not listed: their widths, direction and fonts would tell the length
        // and script of the hidden text. One box covers the restricted region instead.
        let shown = hiddenFrom.map { min($0, layout.lines.count) } ?? layout.lines.count
        let lines = layout.lines.prefix(shown).map { line -> JSON in
            LayoutJSON.line(line, originX: geometry.originX, originY: geometry.originY, scale: scale)
        }
        var restricted: [(String, JSON)] = []
        if let hiddenFrom {
            restricted.append(("restricted_from_line", .number(Double(hiddenFrom))))
            if shown < layout.lines.count {
                let top = shown == 0 ? layout.lines[0].top : layout.lines[shown - 1].bottom
                restricted.append(("restricted", .members([
                    ("x", LayoutJSON.px(geometry.originX, scale)), ("top", LayoutJSON.px(geometry.originY + top, scale)),
                    ("width", LayoutJSON.px(layout.width, scale)), ("height", LayoutJSON.px(layout.height - top, scale)),
                ])))
            }
        }
        let truncated: [(String, JSON)] = layout.truncatedAt.map { [("truncated", .bool(true)), ("cut", .number(Double($0)))] } ?? []
        return .members([
            ("width", .number(Double(geometry.pixelWidth))), ("height", .number(Double(geometry.pixelHeight))),
            ("scale", .number(scale)),
        ] + truncated + restricted + [("lines", .array(lines))] + extra)
    }

    func encoded() -> [UInt8] { Array((json.serialized() + "\n").utf8) }
}
