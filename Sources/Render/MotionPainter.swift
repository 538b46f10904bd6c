import CCairo
import Highlight
import Typeset

/// Draws an animated item as it is at one moment (`MotionState`) on an image surface. The
/// still card's drawing is reused piece by piece: the highlights through the outline builder
/// (rebuilt from the line boxes shown so far, so each stays one joined, rounded shape), the
/// glyphs line by line, or in pieces that look alike (a word, a span), through
/// `Renderer.drawText`, each in a group painted with its opacity.
enum MotionPainter {
    static func draw(_ cr: OpaquePointer, _ item: SceneItem, state: MotionState, moving: MovingItem, faces: FontFaces,
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
            if let parts = moving.parts { try drawText(cr, text, state: state, moving: moving, parts: parts, faces: faces, scale: scale) }
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

    /// How a glyph looks in this frame: its opacity and how far it is lowered.
    struct Look: Hashable {
        var opacity: Double
        var rise: Double
    }

    private static func drawText(_ cr: OpaquePointer, _ text: PlacedText, state: MotionState, moving: MovingItem, parts: MotionParts,
                                 faces: FontFaces, scale: Double) throws {
        cairo_translate(cr, text.x, text.y)
        let layout = text.layout
        if let highlight = text.paint.highlight { drawBlockHighlight(cr, layout, highlight, state: state, parts: parts) }
        // Only the lines that can reach the canvas, as a still card draws them (a long text's
        // frames cost what the canvas shows), each split into the pieces that look alike.
        let reaches = Renderer.reachesClip(cr, paint: text.paint)
        var pieces: [(line: Line, look: Look)] = []
        var shown: [(index: Int, line: Line)] = []
        for (order, index) in parts.lines.enumerated() where state.lineAlpha[order] > 0 && reaches(layout.lines[index]) {
            let line = layout.lines[index]
            let spans = moving.spansByLine[index] ?? []
            if state.wordAlpha == nil && spans.isEmpty {
                // The whole line looks alike (the common case: lines-in, typewriter).
                let kept = state.revealed.map { revealed in line.keeping { $0.cluster < revealed } } ?? line
                pieces.append((kept, Look(opacity: state.lineAlpha[order], rise: state.lineRise[order])))
                shown.append((index, kept))
                continue
            }
            let split = split(line) { cluster in
                look(cluster, order: order, spans: spans, state: state, moving: moving, parts: parts)
            }
            pieces += split.pieces
            shown.append((index, split.visible))
        }
        // The spans' highlights under every glyph, as in the still card.
        drawSpanHighlights(cr, layout, shown: shown, state: state, moving: moving)
        let paint = moving.glyphPaint ?? text.paint
        let reach = layout.size + text.paint.inkReach
        for (piece, look) in pieces {
            var line = piece
            if look.rise != 0 {
                line.moveGlyphs(dx: 0, dy: look.rise)
                line.top += look.rise
                line.baseline += look.rise
            }
            if look.opacity < 1 {
                // A group is a surface the size of the clip: clipped to the line's reach, not
                // the whole canvas (which cost a canvas-sized clear and blend a line).
                cairo_save(cr)
                cairo_rectangle(cr, line.x - reach, line.top - reach, line.width + 2 * reach, line.height + 2 * reach)
                cairo_clip(cr)
                cairo_push_group(cr)
            }
            try Renderer.drawText(cr, layout, lines: [line], faces: faces, outline: nil, paint: paint, format: .png,
                                  scale: scale, textLayer: false, spans: moving.spanPainter)
            if look.opacity < 1 {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, look.opacity)
                cairo_restore(cr)
            }
        }
    }

    /// How the glyph of byte `cluster` on the line at `order` looks: the line's opacity and
    /// rise, times its word's opacity, times those of the animated spans over it; nil when it
    /// is not drawn (not typed yet, or invisible).
    private static func look(_ cluster: Int, order: Int, spans: [(span: Int, order: Int)], state: MotionState, moving: MovingItem,
                             parts: MotionParts) -> Look? {
        if let revealed = state.revealed, cluster >= revealed { return nil }
        var look = Look(opacity: state.lineAlpha[order], rise: state.lineRise[order])
        if let words = state.wordAlpha, let word = parts.word(containing: cluster) { look.opacity *= words[word] }
        for (index, spanOrder) in spans where moving.spans[index].bytes.contains(cluster) {
            let span = state.spans[index]
            if let revealed = span.revealed, cluster >= revealed { return nil }
            look.opacity *= span.alpha * span.lineAlpha[spanOrder]
            look.rise += span.lineRise[spanOrder]
            if let words = span.wordAlpha, let word = moving.spans[index].parts.word(containing: cluster) { look.opacity *= words[word] }
        }
        return look.opacity > 0 ? look : nil
    }

    /// `line` as pieces whose glyphs look alike (in the order first seen; each piece keeps the
    /// line's box), and the line with only the glyphs drawn at all. One pass over the glyphs.
    static func split(_ line: Line, look: (Int) -> Look?) -> (pieces: [(line: Line, look: Look)], visible: Line) {
        var empty = line
        for r in empty.runs.indices { empty.runs[r].glyphs.removeAll(keepingCapacity: false) }
        var pieces: [(line: Line, look: Look)] = []
        var byLook: [Look: Int] = [:]
        var visible = empty
        for (r, run) in line.runs.enumerated() {
            for glyph in run.glyphs {
                guard let key = look(glyph.cluster) else { continue }
                let k: Int
                if let known = byLook[key] {
                    k = known
                } else {
                    k = pieces.count
                    byLook[key] = k
                    pieces.append((empty, key))
                }
                pieces[k].line.runs[r].glyphs.append(glyph)
                visible.runs[r].glyphs.append(glyph)
            }
        }
        return (pieces, visible)
    }

    /// The block's highlight over what is shown so far: swept lines cut to their sweep (from
    /// the line's start side), typed lines to the glyphs typed, lines not yet in left out.
    private static func drawBlockHighlight(_ cr: OpaquePointer, _ layout: Layout, _ highlight: HighlightPaint, state: MotionState,
                                           parts: MotionParts) {
        var shown = layout
        shown.lines = parts.lines.enumerated().compactMap { order, index -> Line? in
            var line = layout.lines[index]
            guard state.lineAlpha[order] > 0 else { return nil }
            if let revealed = state.revealed {
                guard let extent = inkExtent(line, before: revealed) else { return nil }
                (line.x, line.width) = (extent.lowerBound, extent.upperBound - extent.lowerBound)
            }
            if let f = state.sweep?[order] {
                guard f > 0 else { return nil }
                (line.x, line.width) = swept(x: line.x, width: line.width, fraction: f, rtl: line.rtl)
            }
            return line
        }
        if !shown.lines.isEmpty {
            HighlightPainter.draw(cr, outline: shown.highlightOutline(highlight.style), paint: highlight)
        }
    }

    /// Each span's highlight over the glyphs drawn (`shown`: the drawn lines with only those
    /// glyphs, in text order), one joined outline per span; an animated span's own sweep cuts
    /// its boxes, and its opacity is its fade's.
    private static func drawSpanHighlights(_ cr: OpaquePointer, _ layout: Layout, shown: [(index: Int, line: Line)], state: MotionState,
                                           moving: MovingItem) {
        guard !moving.highlights.isEmpty, !shown.isEmpty else { return }
        let lines = shown.map(\.line)
        for highlight in moving.highlights {
            let (start, end) = (highlight.bytes.lowerBound, highlight.bytes.upperBound)
            let touched = lines.overlapping(start, end)
            let alpha = highlight.span.map { state.spans[$0].alpha } ?? 1
            guard !touched.isEmpty, alpha > 0 else { continue }
            var boxes: [LineBox] = []
            for i in touched.indices {
                var box = layout.spanBox(start, end, on: lines[i])
                if let span = highlight.span, let sweep = state.spans[span].sweep, !box.blank,
                   let order = moving.spans[span].parts.order(ofLine: shown[i].index) {
                    guard sweep[order] > 0 else { continue }
                    (box.x, box.width) = swept(x: box.x, width: box.width, fraction: sweep[order], rtl: lines[i].rtl)
                }
                boxes.append(box)
            }
            let drawn = boxes.filter { !$0.blank }
            guard let x0 = drawn.map(\.x).min(), let x1 = drawn.map({ $0.x + $0.width }).max(),
                  let y0 = drawn.map(\.top).min(), let y1 = drawn.map({ $0.top + $0.height }).max() else { continue }
            let grouped = alpha < 1
            if grouped {
                let reach = highlight.paint.reach
                cairo_save(cr)
                cairo_rectangle(cr, x0 - reach.x - 1, y0 - reach.y - 1, x1 - x0 + 2 * reach.x + 2, y1 - y0 + 2 * reach.y + 2)
                cairo_clip(cr)
                cairo_push_group(cr)
            }
            HighlightPainter.draw(cr, outline: OutlineBuilder.outline(boxes, style: highlight.paint.style), paint: highlight.paint)
            if grouped {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, alpha)
                cairo_restore(cr)
            }
        }
    }

    /// The part of a box `fraction` of the way along it in reading direction.
    private static func swept(x: Double, width: Double, fraction: Double, rtl: Bool) -> (x: Double, width: Double) {
        let cut = width * fraction
        return (rtl ? x + width - cut : x, cut)
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
