import Highlight
import Typeset

/// Where a span of a layout is: its glyphs' boxes per line, the outline of its highlight.
extension Layout {
    /// The visual pieces of bytes `start..<end` on `line`: runs of neighbouring glyphs from the
    /// range, each with its x extent and how far its fonts reach above and below the baseline
    /// (a raised run's rise counts).
    package func spanPieces(_ start: Int, _ end: Int, on line: Line) -> [SpanPiece] {
        var pieces: [SpanPiece] = []
        var open: SpanPiece?
        for run in line.runs {
            for glyph in run.glyphs {
                guard glyph.cluster >= start && glyph.cluster < end else {
                    if let piece = open { pieces.append(piece); open = nil }
                    continue
                }
                let x0 = glyph.x, x1 = glyph.x + glyph.advance
                let up = run.metrics.ascent + run.metrics.rise, down = run.metrics.descent - run.metrics.rise
                if var piece = open {
                    piece.x0 = min(piece.x0, x0)
                    piece.x1 = max(piece.x1, x1)
                    piece.ascent = max(piece.ascent, up)
                    piece.descent = max(piece.descent, down)
                    open = piece
                } else {
                    open = SpanPiece(x0: x0, x1: x1, ascent: up, descent: down, baseline: line.baseline)
                }
            }
        }
        if let piece = open { pieces.append(piece) }
        return pieces.filter { $0.x1 > $0.x0 }
    }

    /// The highlight of bytes `start..<end` among `lines`: one box per line around the span's
    /// pieces there, from its fonts' ascent to descent, and the same outline engine as a block's,
    /// so pieces on neighbouring lines join into one shape. Lines the span misses end a shape.
    package func spanOutline(_ start: Int, _ end: Int, lines: [Line], style: HighlightStyle) -> Outline {
        OutlineBuilder.outline(lines.overlapping(start, end).map { spanBox(start, end, on: $0) }, style: style)
    }

    /// The box a span's highlight has on one line: its pieces' extent, as tall as their fonts
    /// reach; blank where the line holds none of its glyphs.
    func spanBox(_ start: Int, _ end: Int, on line: Line) -> LineBox {
        let pieces = spanPieces(start, end, on: line)
        guard let x0 = pieces.map(\.x0).min(), let x1 = pieces.map(\.x1).max(),
              let ascent = pieces.map(\.ascent).max(), let descent = pieces.map(\.descent).max() else {
            return LineBox(x: line.x, top: line.top, width: 0, height: line.height, blank: true)
        }
        return LineBox(x: x0, top: line.baseline - ascent, width: x1 - x0, height: ascent + descent, blank: false)
    }
}

extension Array where Element == Line {
    /// The lines holding any byte of `start..<end`. Lines come in text order (their byte
    /// ranges rise), so a binary search finds the first: a span costs the lines it covers, not
    /// every line of the text (11,000 spans over 350,000 lines took 78 s walking them all).
    package func overlapping(_ start: Int, _ end: Int) -> ArraySlice<Line> {
        var low = startIndex, high = endIndex
        while low < high {
            let mid = (low + high) / 2
            if self[mid].end > start { high = mid } else { low = mid + 1 }
        }
        var upper = low
        while upper < endIndex && self[upper].start < end { upper += 1 }
        return self[low..<upper]
    }
}

/// A span's stretch of glyphs on one line, in layout px (y down).
package struct SpanPiece: Equatable, Sendable {
    package var x0: Double, x1: Double
    package var ascent: Double, descent: Double
    package var baseline: Double
    package var top: Double { baseline - ascent }
    package var bottom: Double { baseline + descent }
}

/// A layout's glyph paints (colour, lines) by byte: the tagged ranges whose paint says
/// something about glyphs, apart and sorted as the card library makes them.
struct GlyphPaints {
    private var ranges = RangeIndex<SpanPaint>()

    init() {}

    init(_ layout: Layout, _ paints: [SpanPaint]) {
        ranges = RangeIndex(layout.spans.compactMap { tag in
            guard tag.tag < paints.count else { return nil }
            let paint = paints[tag.tag]
            guard paint.color != nil || paint.underline != nil || paint.strikethrough != nil else { return nil }
            return (tag.start, tag.end, paint)
        })
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// The paint of the character at byte `offset`, if a span sets one.
    func paint(at offset: Int) -> SpanPaint? { ranges.value(at: offset) }

    /// Each glyph's paint, looked up once.
    func paints(of run: GlyphRun) -> [SpanPaint?] { run.glyphs.map { paint(at: $0.cluster) } }
}

extension Array {
    /// Index ranges of the maximal stretches whose neighbours are `same`.
    func stretches(_ same: (Element, Element) -> Bool) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var from = 0
        for i in indices.dropFirst() where !same(self[i - 1], self[i]) {
            out.append(from..<i)
            from = i
        }
        if !isEmpty { out.append(from..<count) }
        return out
    }
}
