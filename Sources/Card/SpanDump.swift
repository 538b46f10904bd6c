import Render
import Support
import Typeset

extension LayoutJSON {
    /// The layout dump's spans: each styled or painted stretch with its byte range, its style
    /// and its boxes on the shown lines; a highlighted span with its outline's path. `size` is
    /// the block's font size (em lengths resolve against it); a box's `line` counts from
    /// `firstLine`. Cards and pages both dump this.
    package static func spans(_ layout: Layout, paints: [SpanPaint], shown: [Line], size: Double, origin: (Double, Double),
                             scale s: Double, firstLine: Int = 0, cancellation: Cancellation? = nil) throws -> [JSONValue] {
        func boxes(_ start: Int, _ end: Int) -> JSONValue {
            var out: [JSONValue] = []
            let touched = shown.overlapping(start, end)
            for (index, line) in zip(touched.indices, touched) {
                for piece in layout.spanPieces(start, end, on: line) {
                    out.append(.members([("line", .number(Double(firstLine + index))), ("x", px(origin.0 + piece.x0, s)),
                                         ("top", px(origin.1 + piece.top, s)), ("width", px(piece.x1 - piece.x0, s)),
                                         ("height", px(piece.bottom - piece.top, s))]))
                }
            }
            return .array(out)
        }
        // Restricted text: a span says nothing about the hidden lines, not even where it ends
        // (a hidden word's length) or how it is styled there. Only what starts on a shown line
        // is listed, cut at the last shown byte.
        let limit = shown.count < layout.lines.count ? shown.map(\.end).max() ?? 0 : Int.max
        var out: [JSONValue] = []
        for (k, run) in layout.styleRuns.enumerated() where run.start < limit {
            if k % 256 == 0 { try cancellation.check() }
            let run = (start: run.start, end: min(run.end, limit), shaping: run.shaping)
            let shaping = run.shaping
            var style: [(String, JSONValue)] = []
            if let font = shaping.font {
                style += [("family", .string(font.family ?? "")), ("weight", .number(Double(font.weight))), ("slant", .number(Double(font.slant)))]
            }
            if let spanSize = shaping.size { style.append(("size", px(spanSize.resolved(fontSize: size), s))) }
            switch shaping.shift {
            case .none: break
            case .sub: style.append(("baseline-shift", .string("sub")))
            case .sup: style.append(("baseline-shift", .string("super")))
            case let .rise(v): style.append(("baseline-shift", px(v, s)))
            }
            if let spacing = shaping.letterSpacing { style.append(("letter-spacing", px(spacing, s))) }
            if let features = shaping.features { style.append(("features", .string(features.text))) }
            if let lang = shaping.language { style.append(("lang", .string(lang))) }
            out.append(.members([("start", .number(Double(run.start))), ("end", .number(Double(run.end))),
                                 ("style", .members(style)), ("boxes", boxes(run.start, run.end))]))
        }
        var utf8: [UInt8]?  // the text's bytes, for animated spans' parts: made once
        for (k, whole) in layout.spans.enumerated() where whole.tag < paints.count && whole.start < limit {
            if k % 256 == 0 { try cancellation.check() }
            let tag = (start: whole.start, end: min(whole.end, limit), tag: whole.tag)
            let paint = paints[tag.tag]
            var style: [(String, JSONValue)] = []
            if let c = paint.color { style.append(("color", .string(c.description))) }
            if let u = paint.underline { style.append(("underline", .string(u.rawValue))) }
            if let c = paint.underlineColor { style.append(("underline-color", .string(c.description))) }
            if let st = paint.strikethrough { style.append(("strikethrough", .bool(st))) }
            if let c = paint.strikethroughColor { style.append(("strikethrough-color", .string(c.description))) }
            if let link = paint.link { style.append(("link", .string(link.address))) }
            var members: [(String, JSONValue)] = [("start", .number(Double(tag.start))), ("end", .number(Double(tag.end)))]
            if let highlight = paint.highlight {
                if let fill = highlight.fill { style.append(("highlight", .string(fill.description))) }
                if let stroke = highlight.stroke { style.append(("outline-color", .string(stroke.description))) }
                let outline = layout.spanOutline(tag.start, tag.end, lines: shown, style: highlight.style)
                members.append(("highlight", .members([("path", .string(outline.svgPath(scale: s, dx: origin.0 * s, dy: origin.1 * s))),
                                                       ("contours", .number(Double(outline.contours.count)))])))
            }
            members += [("style", .members(style)), ("boxes", boxes(tag.start, tag.end))]
            if !paint.animation.isEmpty {
                if utf8 == nil { utf8 = Array(layout.text.utf8) }
                let timings = layout.schedule(paint.animation, bytes: tag.start..<tag.end, shownLines: firstLine + shown.count, utf8: utf8!)
                members.append(("animation", timing(timings)))
            }
            out.append(.members(members))
        }
        return out
    }

    /// When each effect of a block or span runs, in seconds to the millisecond (the dump's
    /// `"animation"`): `[{effect, start, end, stagger, parts}]`.
    package static func timing(_ timings: [EffectTiming]) -> JSONValue {
        let rounded = { (v: Double) in JSONValue.number((v * 1000).rounded() / 1000) }
        return .array(timings.map { entry in
            .object([("effect", .string(entry.effect.rawValue)), ("start", rounded(entry.begin)), ("end", rounded(entry.end)),
                     ("stagger", rounded(entry.stagger)), ("parts", .number(Double(entry.parts)))])
        })
    }
}
