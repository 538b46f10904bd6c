import Highlight
import Motion
import Typeset

/// An animated span of a text item: its bytes, what its effects stagger over and when they run.
struct MovingSpan {
    let bytes: Range<Int>
    let parts: MotionParts
    let timeline: Timeline
    /// Its lines' heights, in `parts.lines` order (lines-in rises by a share of them).
    let heights: [Double]
}

/// One scene item that moves, as the whole animation needs it, found once: its timeline and
/// parts, its animated spans, and for text the paint its glyphs are drawn with (its
/// highlights drawn apart, joined, by `MotionPainter`).
struct MovingItem {
    let timeline: Timeline
    /// Nil for a picture or the step dots (one part).
    let parts: MotionParts?
    /// Heights of `parts.lines` (a picture's own height).
    let heights: [Double]
    let spans: [MovingSpan]
    /// The animated spans over each layout line, with the line's place among each span's lines.
    let spansByLine: [Int: [(span: Int, order: Int)]]
    /// Every span highlight of the text, with its animated span when it has effects.
    let highlights: [(bytes: Range<Int>, paint: HighlightPaint, span: Int?)]
    /// The text's paint without the block's and the spans' highlights, and its span painter
    /// (made once: each frame draws the text in many pieces).
    let glyphPaint: TextPaint?
    let spanPainter: SpanPainter?

    /// Nil when neither the item nor any of its spans moves.
    init?(_ item: SceneItem, effects: [EffectSpec]) {
        if effects.isEmpty {
            guard case let .text(text) = item, text.paint.spans.contains(where: { !$0.animation.isEmpty }) else { return nil }
        }
        var parts: MotionParts?, heights = [0.0], spans: [MovingSpan] = [], byLine: [Int: [(span: Int, order: Int)]] = [:]
        var highlights: [(bytes: Range<Int>, paint: HighlightPaint, span: Int?)] = []
        var glyphPaint: TextPaint?, spanPainter: SpanPainter?
        switch item {
        case let .text(text):
            let layout = text.layout, utf8 = Array(layout.text.utf8)
            let whole = MotionParts(layout, shown: text.shownLines, utf8: utf8)
            parts = whole
            heights = whole.lines.map { layout.lines[$0].height }
            for tag in layout.spans where tag.tag < text.paint.spans.count && tag.start < tag.end {
                let paint = text.paint.spans[tag.tag]
                var index: Int?
                if !paint.animation.isEmpty {
                    let spanParts = MotionParts(layout, shown: text.shownLines, utf8: utf8, bytes: tag.start..<tag.end)
                    index = spans.count
                    for (order, line) in spanParts.lines.enumerated() { byLine[line, default: []].append((spans.count, order)) }
                    spans.append(MovingSpan(bytes: tag.start..<tag.end, parts: spanParts,
                                            timeline: Timeline(paint.animation, parts: { spanParts.count($0) }),
                                            heights: spanParts.lines.map { layout.lines[$0].height }))
                }
                if let highlight = paint.highlight { highlights.append((tag.start..<tag.end, highlight, index)) }
            }
            var plain = text.paint
            plain.highlight = nil
            if !highlights.isEmpty { plain.spans = plain.spans.map { var paint = $0; paint.highlight = nil; return paint } }
            glyphPaint = plain
            spanPainter = SpanPainter(layout: layout, paint: plain)
        case let .image(_, _, _, _, height, _, _, _, _):
            heights = [height]
        case .dots:
            break
        }
        guard !effects.isEmpty || !spans.isEmpty else { return nil }
        timeline = Timeline(effects, parts: { parts?.count($0) ?? 1 })
        (self.parts, self.heights, self.spans, spansByLine, self.highlights, self.glyphPaint, self.spanPainter) =
            (parts, heights, spans, byLine, highlights, glyphPaint, spanPainter)
    }

    /// The item as it is `t` seconds from the card's start.
    func state(at t: Double) -> MotionState {
        var state = timeline.state(at: t, parts: parts, lineHeights: heights)
        state.spans = spans.map { $0.timeline.state(at: t, parts: $0.parts, lineHeights: $0.heights) }
        return state
    }

    /// When its last effect (its own or a span's) ends.
    var end: Double {
        let own = timeline.effects.map { $0.end(parts: parts?.count($0.effect) ?? 1) }
        let spans = spans.flatMap { span in span.timeline.effects.map { $0.end(parts: span.parts.count($0.effect)) } }
        return (own + spans).max() ?? 0
    }
}
