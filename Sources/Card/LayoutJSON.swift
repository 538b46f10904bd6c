import Typeset
import Support

/// The layout-dump contract's pieces, shared by `render`, `steps` and card dumps: lengths in
/// output pixels to 1/1000, UTF-8 byte offsets.
package enum LayoutJSON {
    /// A length in output pixels, to 1/1000.
    package static func px(_ value: Double, _ scale: Double) -> JSONValue { .number((value * scale * 1000).rounded() / 1000) }

    /// One line, its box moved by its block's origin on the canvas, and its runs in visual
    /// order (byte range, bidi level, face) from the layout's `fonts`.
    package static func line(_ line: Line, fonts: [FontFace], originX: Double, originY: Double, scale: Double) -> JSONValue {
        .members(lineMembers(line, originX: originX, originY: originY, scale: scale) + (line.hyphen ? [("hyphen", .bool(true))] : [])
                 + [("runs", .array(line.runs.map { run(line, $0, fonts) }))])
    }

    /// A run: `start`/`end` are UTF-8 offsets into the text, `level` its bidi level; its face by
    /// file name (not the folder: a service's paths are its own), index in the file, named
    /// instance and axis values, and what was synthesised (`bold`, `oblique`).
    private static func run(_ line: Line, _ run: GlyphRun, _ fonts: [FontFace]) -> JSONValue {
        let face = fonts[run.font]
        var members: [(String, JSONValue)] = [("family", .string(face.family)), ("style", .string(face.style)),
                                             ("file", .string(face.fileName)),
                                             ("index", .number(Double(face.index)))]
        if !face.instance.isEmpty { members.append(("instance", .string(face.instance))) }
        if !face.variations.isEmpty { members.append(("variations", .string(face.variations))) }
        let synthetic = face.synthetic(oblique: run.metrics.oblique)
        if !synthetic.isEmpty { members.append(("synthetic", .array(synthetic.map(JSONValue.string)))) }
        return .members([("start", .number(Double(run.start))), ("end", .number(Double(run.end))),
                         ("level", .number(Double(run.level))), ("font", .members(members))])
    }

    private static func lineMembers(_ line: Line, originX: Double, originY: Double, scale: Double) -> [(String, JSONValue)] {
        [
            ("start", .number(Double(line.start))), ("end", .number(Double(line.end))), ("text", .string(line.text)),
            ("x", px(originX + line.x, scale)), ("top", px(originY + line.top, scale)),
            ("width", px(line.width, scale)), ("height", px(line.height, scale)),
            ("baseline", px(originY + line.baseline, scale)), ("rtl", .bool(line.rtl)),
            ("fonts", .array(line.fonts.map(JSONValue.string))),
        ]
    }
}

extension BuiltCard {
    /// The layout dump of a one-block canvas (`hlrender render`, `steps`; see the layout-dump
    /// contract): the canvas's size and scale, then the block's own members (its lines, or its
    /// steps) without its box, which is the canvas less its padding.
    package func soleBlockDump() -> JSONValue {
        guard case let .object(top) = dump, case let .array(blocks)? = dump["blocks"], blocks.count == 1,
              case let .object(block) = blocks[0] else { return dump }
        let box: Set<String> = ["type", "x", "y", "width", "height", "size"]
        return .object(top.filter { $0.key != "blocks" } + block.filter { !box.contains($0.key) })
    }
}
