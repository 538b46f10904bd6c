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
        if grouped {
            if let box = bounds(item) {
                cairo_rectangle(cr, box.x, box.y, box.width, box.height)
                cairo_clip(cr)
            }
            cairo_push_group(cr)
        }
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

    /// Where an item can draw (in card pixels), generously; nil: anywhere.
    static func bounds(_ item: SceneItem) -> (x: Double, y: Double, width: Double, height: Double)? {
        switch item {
        case let .text(text):
            let reach = text.layout.size + text.paint.inkReach
            return (text.x - reach, text.y - reach, text.layout.width + 2 * reach, text.layout.height + 2 * reach)
        case let .image(_, x, y, width, height, _, _, _, _):
            return (x - 1, y - 1, width + 2, height + 2)
        case .dots:
            return nil
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
        // Only the lines that can reach the canvas, as a still card draws them (a long text's
        // frames cost what the canvas shows).
        let reaches = Renderer.reachesClip(cr, paint: text.paint)
        let reach = layout.size + text.paint.inkReach
        for index in parts.lines where state.lineAlpha[index] > 0 && reaches(layout.lines[index]) {
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
                pieces = parts.words(on: line).compactMap { w in
                    guard words[w] > 0 else { return nil }
                    let range = parts.words[w]
                    return (line.keeping { range.contains($0.cluster) }, words[w])
                }
            } else {
                pieces = [(line, 1)]
            }
            for (piece, alpha) in pieces {
                let opacity = alpha * state.lineAlpha[index]
                guard opacity > 0 else { continue }
                if opacity < 1 {
                    // A group is a surface the size of the clip: clipped to the line's reach,
                    // not the whole canvas (which cost a canvas-sized clear and blend a line).
                    cairo_save(cr)
                    cairo_rectangle(cr, line.x - reach, line.top - reach, line.width + 2 * reach, line.height + 2 * reach)
                    cairo_clip(cr)
                    cairo_push_group(cr)
                }
                try Renderer.drawText(cr, layout, lines: [piece], faces: faces, outline: nil, paint: paint, format: .png,
                                      scale: scale, textLayer: false)
                if opacity < 1 {
                    cairo_pop_group_to_source(cr)
                    cairo_paint_with_alpha(cr, opacity)
                    cairo_restore(cr)
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
