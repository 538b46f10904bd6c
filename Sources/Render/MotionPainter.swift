import CCairo
import Highlight
import Typeset

/// Draws an animated item as it is at one moment (`MotionState`) on an image surface. The
/// still card's drawing is reused piece by piece: the highlight through the outline builder
/// (rebuilt from the line boxes shown so far, so it stays one joined, rounded shape), the
/// glyphs line by line or word by word through `Renderer.drawText`, each in a group painted
/// with its opacity.
enum MotionPainter {
    static func draw(_ cr: OpaquePointer, _ item: SceneItem, state: MotionState, parts: MotionParts?, faces: FontFaces,
                     scale: Double) throws {
        guard state.alpha > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let grouped = state.alpha < 1
        if grouped { cairo_push_group(cr) }
        switch item {
        case let .text(text):
            if let parts { try drawText(cr, text, state: state, parts: parts, faces: faces, scale: scale) }
        default:
            // A picture or the step dots: they rise and fade as one line does.
            cairo_translate(cr, 0, state.lineRise.first ?? 0)
            try Renderer.draw(cr, item, faces: faces, format: .png, scale: scale, textLayer: false)
        }
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, state.alpha)
        }
    }

    private static func drawText(_ cr: OpaquePointer, _ text: PlacedText, state: MotionState, parts: MotionParts,
                                 faces: FontFaces, scale: Double) throws {
        cairo_translate(cr, text.x, text.y)
        let layout = text.layout
        // The highlight of what is shown so far: swept lines cut to their sweep (from the
        // line's start side), typed lines to the glyphs typed, lines not yet in left out.
        if let highlight = text.paint.highlight {
            var shown = layout
            shown.lines = parts.lines.compactMap { index -> Line? in
                var line = layout.lines[index]
                guard state.lineAlpha[index] > 0 else { return nil }
                if let revealed = state.revealed {
                    guard let extent = inkExtent(line, before: revealed) else { return nil }
                    (line.x, line.width) = (extent.lowerBound, extent.upperBound - extent.lowerBound)
                }
                if let f = state.sweep?[index] {
                    guard f > 0 else { return nil }
                    let full = line.width
                    line.width = full * f
                    if line.rtl { line.x += full - line.width }
                }
                return line
            }
            if !shown.lines.isEmpty {
                HighlightPainter.draw(cr, outline: shown.highlightOutline(highlight.style), paint: highlight)
            }
        }
        var paint = text.paint
        paint.highlight = nil
        for index in parts.lines where state.lineAlpha[index] > 0 {
            var line = layout.lines[index]
            if let revealed = state.revealed { line = line.keeping { $0.cluster < revealed } }
            let rise = state.lineRise[index]
            if rise != 0 {
                line.moveGlyphs(dx: 0, dy: rise)
                line.top += rise
                line.baseline += rise
            }
            let pieces: [(Line, Double)]
            if let words = state.wordAlpha {
                pieces = parts.words.indices.compactMap { w in
                    let range = parts.words[w]
                    guard words[w] > 0, range.lowerBound < line.end, range.upperBound > line.start else { return nil }
                    return (line.keeping { range.contains($0.cluster) }, words[w])
                }
            } else {
                pieces = [(line, 1)]
            }
            for (piece, alpha) in pieces {
                let opacity = alpha * state.lineAlpha[index]
                guard opacity > 0 else { continue }
                if opacity < 1 { cairo_push_group(cr) }
                try Renderer.drawText(cr, layout, lines: [piece], faces: faces, outline: nil, paint: paint, format: .png,
                                      scale: scale, textLayer: false)
                if opacity < 1 {
                    cairo_pop_group_to_source(cr)
                    cairo_paint_with_alpha(cr, opacity)
                }
            }
        }
    }

    /// The horizontal extent of the glyphs of `line` whose clusters start before `offset`
    /// (their advances), nil when there is none.
    static func inkExtent(_ line: Line, before offset: Int) -> ClosedRange<Double>? {
        var low = Double.infinity, high = -Double.infinity
        for run in line.runs {
            for glyph in run.glyphs where glyph.cluster < offset {
                low = min(low, glyph.x)
                high = max(high, glyph.x + glyph.advance)
            }
        }
        let from = max(low, line.x), to = min(high, line.x + line.width)
        return from < to ? from...to : nil
    }
}

extension Line {
    /// The line with only the glyphs `keep` accepts (its box unchanged).
    func keeping(_ keep: (Glyph) -> Bool) -> Line {
        var line = self
        for r in line.runs.indices { line.runs[r].glyphs.removeAll { !keep($0) } }
        return line
    }
}
