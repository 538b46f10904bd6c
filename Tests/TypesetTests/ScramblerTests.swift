import Foundation
import TestSupport
import Testing
@testable import Typeset

@Suite struct ScramblerTests {
    let text = "Visible first line\nsecret words hidden here\nand more secret text"

    func layoutAndTypesetter() throws -> (Layout, Typesetter) {
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
        return (try typesetter.layout(text, style: TypesetStyle(size: 40)), typesetter)
    }

    @Test func hiddenGlyphIdsNeverAppear() throws {
        let (layout, typesetter) = try layoutAndTypesetter()
        let scrambled = try typesetter.scrambled(layout, fromLine: 1, seed: 7).layout
        let font = try typesetter.shapingFont(layout.fonts[0], size: 40)
        let original = Set(layout.lines[1...].flatMap { $0.runs.flatMap(\.glyphs) }.map(\.id).filter(font.hasInk))
        let drawn = Set(scrambled.lines[1...].flatMap { $0.runs.flatMap(\.glyphs) }.map(\.id).filter(font.hasInk))
        #expect(!original.isEmpty && !drawn.isEmpty)
        #expect(original.isDisjoint(with: drawn))
        // The visible line is untouched; positions and counts are kept; hidden text is dropped.
        #expect(scrambled.lines[0] == layout.lines[0])
        for i in 1..<layout.lines.count {
            #expect(scrambled.lines[i].runs.map { $0.glyphs.map(\.x) } == layout.lines[i].runs.map { $0.glyphs.map(\.x) })
            #expect(scrambled.lines[i].width == layout.lines[i].width)
            #expect(scrambled.lines[i].text.isEmpty)
        }
    }

    @Test func substitutesHaveSimilarAdvances() throws {
        let (layout, typesetter) = try layoutAndTypesetter()
        let scrambled = try typesetter.scrambled(layout, fromLine: 1, seed: 7).layout
        let font = try typesetter.shapingFont(layout.fonts[0], size: 40)
        let pairs = zip(layout.lines[1...].flatMap { $0.runs.flatMap(\.glyphs) },
                        scrambled.lines[1...].flatMap { $0.runs.flatMap(\.glyphs) })
        let differences = pairs.map { abs(font.advance(of: $0.id) - font.advance(of: $1.id)) / 40 }
        #expect(differences.reduce(0, +) / Double(differences.count) < 0.05, "mean advance difference in em")
    }

    @Test func theSeedDecidesNotTheText() throws {
        let (layout, typesetter) = try layoutAndTypesetter()
        let ids = { (l: Layout) in l.lines.flatMap { $0.runs.flatMap { $0.glyphs.map(\.id) } } }
        #expect(ids(try typesetter.scrambled(layout, fromLine: 1, seed: 7).layout) == ids(try typesetter.scrambled(layout, fromLine: 1, seed: 7).layout))
        #expect(ids(try typesetter.scrambled(layout, fromLine: 1, seed: 7).layout) != ids(try typesetter.scrambled(layout, fromLine: 1, seed: 8).layout))
        // Random seeds: the same hidden text gives different substitutes on every render.
        let a = ids(try typesetter.scrambled(layout, fromLine: 1, seed: ScrambleSeed.random()).layout)
        let b = ids(try typesetter.scrambled(layout, fromLine: 1, seed: ScrambleSeed.random()).layout)
        #expect(a != b)
    }
}

@Suite struct ScramblerEmojiTests {
    @Test func hiddenEmojiAreReplacedToo() throws {
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
        let layout = try typesetter.layout("visible\nsecret 👩‍💻🎉 ☕", style: TypesetStyle(size: 40))
        let scrambled = try typesetter.scrambled(layout, fromLine: 1, seed: 7).layout
        let emoji = layout.fonts.indices.first { layout.fonts[$0].isColor }!
        let before = layout.lines[1].runs.filter { $0.font == emoji }.flatMap { $0.glyphs.map(\.id) }
        let after = scrambled.lines[1].runs.filter { $0.font == emoji }.flatMap { $0.glyphs.map(\.id) }
        #expect(before.count == 3 && after.count == 3)
        #expect(Set(before).isDisjoint(with: Set(after)))
    }
}

/// Hidden lines with spans of other sizes and weights: each run is scrambled from its own font
/// at its own size, so no real glyph survives and the substitutes keep each run's advances.
@Suite struct ScramblerSpanTests {
    @Test func mixedSizeAndWeightSpansAreScrambledEachAtItsOwnSize() throws {
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
        let text = "visible line\nsecret big bold words and small ones"
        func range(_ word: String) -> (Int, Int) {
            let start = text.range(of: word)!.lowerBound.utf16Offset(in: text)  // ASCII: UTF-16 = UTF-8 offsets
            return (start, start + word.utf8.count)
        }
        var style = TypesetStyle(size: 40)
        let (b0, b1) = range("big bold words"), (s0, s1) = range("small ones")
        style.runs = [StyledRange(start: b0, end: b1, shaping: SpanShaping(font: FontSpec(weight: 200), size: .px(72))),
                      StyledRange(start: s0, end: s1, shaping: SpanShaping(size: .px(20)))]
        let layout = try typesetter.layout(text, style: style)
        let hidden = layout.lines[1...].flatMap(\.runs)
        #expect(Set(hidden.map(\.size)) == [20, 40, 72], "\(hidden.map(\.size))")
        #expect(Set(hidden.map(\.font)).count == 2)
        let scrambled = try typesetter.scrambled(layout, fromLine: 1, seed: 7).layout
        let after = scrambled.lines[1...].flatMap(\.runs)
        #expect(after.count == hidden.count)
        for (before, run) in zip(hidden, after) {
            #expect(before.size == run.size && before.font == run.font)
            let font = try typesetter.shapingFont(layout.fonts[run.font], size: run.size)
            let real = Set(before.glyphs.map(\.id).filter(font.hasInk))
            #expect(real.isDisjoint(with: Set(run.glyphs.map(\.id).filter(font.hasInk))), "size \(run.size)")
            // Each substitute is chosen by advance at the run's own size: within 0.1 em on average.
            let drift = zip(before.glyphs, run.glyphs).map { abs(font.advance(of: $0.id) - font.advance(of: $1.id)) / run.size }
            #expect(drift.reduce(0, +) / Double(max(drift.count, 1)) < 0.1, "size \(run.size): \(drift)")
        }
    }
}
