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
