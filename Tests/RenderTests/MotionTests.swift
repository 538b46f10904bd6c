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
            let state = timeline.state(at: Double(step) / 40, parts: parts, lineCount: layout.lines.count,
                                       lineHeights: layout.lines.map(\.height))
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
        let heights = layout.lines.map(\.height)
        let early = timeline.state(at: 0.25, parts: parts, lineCount: layout.lines.count, lineHeights: heights)
        #expect((early.sweep?[0] ?? 0) > 0 && (early.sweep?[0] ?? 1) < 1 && early.sweep?[1] == 0)
        let later = timeline.state(at: 0.75, parts: parts, lineCount: layout.lines.count, lineHeights: heights)
        #expect(later.sweep?[0] == 1 && (later.sweep?[1] ?? 0) > 0)
        #expect(!later.isFinal)
        let end = timeline.state(at: 0.5 * Double(layout.lines.count) + 0.01, parts: parts, lineCount: layout.lines.count, lineHeights: heights)
        #expect(end.isFinal)
    }
}
