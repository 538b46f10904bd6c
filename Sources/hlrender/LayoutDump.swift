import Render
import Typeset

/// The `--dump-layout` JSON (a contract, see DESIGN.md): canvas size, lines with UTF-8 byte
/// ranges and boxes, all lengths in output pixels.
struct LayoutDump {
    var layout: Layout
    var geometry: CanvasGeometry
    var scale: Double
    /// Restricted mode: lines from this index on are hidden (their text is not reported).
    var hiddenFrom: Int?
    /// Extra top-level members (the highlight, restricted mode) in order.
    var extra: [(String, JSON)] = []

    /// A length in output pixels, to 1/1000.
    static func px(_ value: Double, _ scale: Double) -> JSON { .number((value * scale * 1000).rounded() / 1000) }

    /// One line of the contract, its box moved by the block's origin on the canvas.
    static func line(_ line: Line, originX: Double, originY: Double, scale: Double, hidden: Bool = false) -> JSON {
        .members([("start", .number(Double(line.start))), ("end", .number(Double(line.end)))]
            + (hidden ? [] : [("text", .string(line.text))]) + [
                ("x", px(originX + line.x, scale)), ("top", px(originY + line.top, scale)),
                ("width", px(line.width, scale)), ("height", px(line.height, scale)),
                ("baseline", px(originY + line.baseline, scale)), ("rtl", .bool(line.rtl)),
                ("fonts", .array(line.fonts.map(JSON.string))),
            ])
    }

    var json: JSON {
        let lines = layout.lines.enumerated().map { index, line -> JSON in
            LayoutDump.line(line, originX: geometry.originX, originY: geometry.originY, scale: scale,
                            hidden: hiddenFrom.map { index >= $0 } ?? false)
        }
        let restricted: [(String, JSON)] = hiddenFrom.map { [("restricted_from_line", .number(Double($0)))] } ?? []
        return .members([
            ("width", .number(Double(geometry.pixelWidth))), ("height", .number(Double(geometry.pixelHeight))),
            ("scale", .number(scale)),
        ] + restricted + [("lines", .array(lines))] + extra)
    }

    func encoded() -> [UInt8] { Array((json.serialized() + "\n").utf8) }
}
