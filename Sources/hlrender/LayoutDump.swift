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

    private func px(_ value: Double) -> JSON { .number((value * scale * 1000).rounded() / 1000) }

    var json: JSON {
        let lines = layout.lines.enumerated().map { index, line -> JSON in
            let hidden = hiddenFrom.map { index >= $0 } ?? false
            return .members([
                ("start", .number(Double(line.start))), ("end", .number(Double(line.end)))]
                + (hidden ? [] : [("text", .string(line.text))]) + [
                ("x", px(geometry.originX + line.x)),
                ("top", px(geometry.originY + line.top)), ("width", px(line.width)),
                ("height", px(line.height)), ("baseline", px(geometry.originY + line.baseline)),
                ("rtl", .bool(line.rtl)), ("fonts", .array(line.fonts.map(JSON.string))),
            ])
        }
        let restricted: [(String, JSON)] = hiddenFrom.map { [("restricted_from_line", .number(Double($0)))] } ?? []
        return .members([
            ("width", .number(Double(geometry.pixelWidth))), ("height", .number(Double(geometry.pixelHeight))),
            ("scale", .number(scale)),
        ] + restricted + [("lines", .array(lines))] + extra)
    }

    func encoded() -> [UInt8] { Array((json.serialized() + "\n").utf8) }
}
