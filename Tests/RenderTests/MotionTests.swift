@testable import Render
import Motion
import TestSupport
import Testing
import Typeset

/// The animation clock and what an item shows at a moment: numbers, no pixels.
@Suite struct MotionTests {
    /// CSS's named timing functions: 0 at 0, 1 at 1, rising, and ease-out ahead of linear.
    @Test func easingsRunFromZeroToOneAndRise() {
        for easing in Easing.allCases {
            #expect(abs(easing(0)) < 1e-9 && abs(easing(1) - 1) < 1e-9, "\(easing)")
            let samples = stride(from: 0.0, through: 1.0, by: 0.05).map { easing($0) }
            #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 }, "\(easing) falls")
        }
        #expect(Easing.easeOut(0.5) > 0.5 && Easing.easeIn(0.5) < 0.5 && Easing.linear(0.25) == 0.25)
        // cubic-bezier(0, 0, 0.58, 1) at x = 0.5: 0.68464 (solved by bisection in Python from
        // the Bézier's formula, outside this code).
        #expect(abs(Easing.easeOut(0.5) - 0.68464) < 0.001)
    }

    /// Effects follow one another, `delay` after the one before; `start` places one on the
    /// card's clock; a staggered effect ends when its last part does.
    @Test func timelinePlacesEffects() {
        var sweep = EffectSpec(.highlightSweep, duration: 0.4)
        sweep.start = 0.1
        var fade = EffectSpec(.fade, duration: 0.5)
        fade.delay = 0.25
        let timeline = Timeline([EffectSpec(.linesIn, duration: 0.6), fade, sweep], parts: { $0 == .linesIn ? 3 : 2 })
        let begins = timeline.effects.map(\.begin)
        // lines-in: 3 lines, 0.15 s apart, 0.6 s each: ends at 0.9; fade 0.25 s later.
        #expect(zip(begins, [0, 1.15, 0.1]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(begins)")
        #expect(abs(timeline.effects[0].end(parts: 3) - 0.9) < 1e-9)
        #expect(timeline.effects[0].progress(at: 0.3, part: 2) == 0)
        #expect(timeline.effects[0].progress(at: 0.9, part: 2) == 1)
    }

    /// The typewriter reveals whole grapheme clusters: an accent with its letter, a family
    /// emoji whole, a Devanagari conjunct whole, never a part.
    @Test func typewriterNeverSplitsACluster() throws {
        let text = "e\u{301}te\u{301} 👩‍👩‍👧 क्षमा"
        let layout = try Fixtures.layout(text)
        let item = try PlacedText(layout: layout, x: 0, y: 0)
        let parts = MotionParts(item)
        let utf8 = Array(text.utf8)
        var boundaries: Set<Int> = [0]
        var offset = 0
        for character in text { offset += character.utf8.count; boundaries.insert(offset) }
        #expect(parts.clusterEnds.allSatisfy { boundaries.contains($0) }, "\(parts.clusterEnds)")
        // Whitespace is no cluster of its own: "é t é" has 3 + 1 emoji + 3 clusters of क्षमा.
        #expect(parts.clusterEnds.count == Array(text).filter { !$0.isWhitespace }.count)
        #expect(parts.clusterEnds.last == utf8.count)
        #expect(parts.words.count == 3)
        let timeline = Timeline([EffectSpec(.typewriter, duration: 1)], parts: { parts.count($0) })
        for step in 0...40 {
            let state = timeline.state(at: Double(step) / 40, parts: parts, lineHeights: parts.lines.map { layout.lines[$0].height })
            if let revealed = state.revealed { #expect(boundaries.contains(revealed), "cut at \(revealed)") }
        }
    }

    /// A highlight sweep grows each line in reading order, one after the other, and an item
    /// whose effects are over is final (drawn as the still card).
    @Test func sweepGrowsLineByLine() throws {
        let layout = try Fixtures.layout("one two three four five six seven", width: 200)
        #expect(layout.lines.count >= 3)
        let parts = MotionParts(try PlacedText(layout: layout, x: 0, y: 0))
        let timeline = Timeline([EffectSpec(.highlightSweep, duration: 0.5)], parts: { parts.count($0) })
        let heights = parts.lines.map { layout.lines[$0].height }
        let early = timeline.state(at: 0.25, parts: parts, lineHeights: heights)
        #expect((early.sweep?[0] ?? 0) > 0 && (early.sweep?[0] ?? 1) < 1 && early.sweep?[1] == 0)
        let later = timeline.state(at: 0.75, parts: parts, lineHeights: heights)
        #expect(later.sweep?[0] == 1 && (later.sweep?[1] ?? 0) > 0)
        #expect(!later.isFinal)
        let end = timeline.state(at: 0.5 * Double(layout.lines.count) + 0.01, parts: parts, lineHeights: heights)
        #expect(end.isFinal)
    }

    /// A span's parts are its own: the lines it is on, its words cut at its ends, its
    /// clusters; a word of the block found by any byte of it, none for a space.
    @Test func spanPartsAreCutAtTheSpansEnds() throws {
        let text = "alpha beta gamma delta epsilon zeta eta theta"
        let layout = try Fixtures.layout(text, width: 200)
        #expect(layout.lines.count >= 3)
        let utf8 = Array(text.utf8)
        // "ta gamma delta eps": from inside "beta" to inside "epsilon".
        let start = 8, end = 26
        let span = MotionParts(layout, shown: layout.lines.count, utf8: utf8, bytes: start..<end)
        let words = span.words.map { String(decoding: utf8[$0], as: UTF8.self) }
        #expect(words == ["ta", "gamma", "delta", "eps"], "\(words)")
        #expect(span.clusterEnds.first == start + 1 && span.clusterEnds.last == end)
        let touched = layout.lines.indices.filter { layout.lines[$0].start < end && layout.lines[$0].end > start }
        #expect(span.lines == touched)
        #expect(span.order(ofLine: touched[0]) == 0 && span.order(ofLine: layout.lines.count + 5) == nil)
        // A span shown on no line (hidden by a restriction) has no parts.
        let hidden = MotionParts(layout, shown: 0, utf8: utf8, bytes: start..<end)
        #expect(hidden.lines.isEmpty && hidden.words.isEmpty && hidden.count(.linesIn) == 0)
        let block = MotionParts(layout, shown: layout.lines.count, utf8: utf8)
        #expect(block.word(containing: 7).map { String(decoding: utf8[block.words[$0]], as: UTF8.self) } == "beta")
        #expect(block.word(containing: 5) == nil)
    }

    /// A line split by how its glyphs look: every drawn glyph in exactly one piece of its
    /// look, pieces in the order first met, the undrawn ones in none.
    @Test func splitPutsEachGlyphInOnePiece() throws {
        let layout = try Fixtures.layout("one two three", width: 1000)
        let line = layout.lines[0]
        let look = { (cluster: Int) -> MotionPainter.Look? in
            cluster < 3 ? MotionPainter.Look(opacity: 0.5, rise: 2) : cluster < 8 ? MotionPainter.Look(opacity: 1, rise: 0) : nil
        }
        let split = MotionPainter.split(line, look: look)
        let glyphs = { (line: Line) in line.runs.flatMap(\.glyphs).map(\.cluster) }
        #expect(split.pieces.map(\.look.opacity) == [0.5, 1])
        #expect(glyphs(split.pieces[0].line).allSatisfy { $0 < 3 } && glyphs(split.pieces[1].line).allSatisfy { (3..<8).contains($0) })
        #expect(glyphs(split.visible).sorted() == glyphs(line).filter { $0 < 8 }.sorted())
        #expect(split.pieces.allSatisfy { $0.line.x == line.x && $0.line.width == line.width })
    }

    /// An item with only a span's effects moves; its state carries the span's, and is final
    /// once the span's effects are over.
    @Test func aSpansEffectsMoveTheItem() throws {
        let text = "still words then moving words"
        var layout = try Fixtures.layout(text, width: 1000)
        layout.spans = [TaggedRange(start: 17, end: 29, tag: 0)]
        var paint = TextPaint()
        var span = SpanPaint()
        span.animation = [EffectSpec(.wordsIn, duration: 0.2)]
        paint.spans = [span]
        let item = SceneItem.text(try PlacedText(layout: layout, x: 0, y: 0, paint: paint))
        #expect(MovingItem(item, effects: []) != nil)
        paint.spans = [SpanPaint()]
        #expect(MovingItem(.text(try PlacedText(layout: layout, x: 0, y: 0, paint: paint)), effects: []) == nil)
        let moving = try #require(MovingItem(item, effects: []))
        #expect(moving.spans.count == 1 && moving.spans[0].parts.words.count == 2)
        // words-in: 2 words, 0.08 s apart, 0.2 s each: over at 0.28 s.
        #expect(abs(moving.end - 0.28) < 1e-9)
        let early = moving.state(at: 0.1)
        #expect(early.spans.count == 1 && !early.isFinal)
        let alphas = try #require(early.spans[0].wordAlpha)
        #expect(abs(alphas[0] - Easing.easeOut(0.5)) < 1e-3 && abs(alphas[1] - Easing.easeOut(0.1)) < 1e-3, "\(alphas)")
        #expect(early.alpha == 1 && early.lineAlpha.allSatisfy { $0 == 1 })
        #expect(moving.state(at: 0.3).isFinal)
    }
}
