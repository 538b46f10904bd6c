import TestSupport
import Testing
import Typeset

/// Letter and word spacing, fixed line height and OpenType features, checked with numbers.
@Suite struct SpacingTests {
    let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())

    func layout(_ text: String, size: Double = 40, _ configure: (inout TypesetStyle) -> Void = { _ in }) throws -> Layout {
        var style = TypesetStyle(size: size)
        configure(&style)
        return try typesetter.layout(text, style: style)
    }

    @Test func letterSpacingTracksLatinClusters() throws {
        let plain = try layout("Tracking"), spaced = try layout("Tracking") { $0.letterSpacing = 5 }
        #expect(abs(spaced.lines[0].width - plain.lines[0].width - 8 * 5) < 1e-6)
    }

    @Test func letterSpacingLeavesArabicJoined() throws {
        let text = "مرحبا بالعالم"
        let plain = try layout(text), spaced = try layout(text) { $0.letterSpacing = 8 }
        let ids = { (l: Layout) in l.lines[0].runs.flatMap { $0.glyphs.map(\.id) } }
        #expect(ids(spaced) == ids(plain), "the same joined glyphs, no tracking inside the script")
        #expect(abs(spaced.lines[0].width - plain.lines[0].width) < 1e-6)
    }

    @Test func letterSpacingTurnsLigaturesOff() throws {
        let ids = { (l: Layout) in l.lines[0].runs.flatMap { $0.glyphs.map(\.id) } }
        #expect(ids(try layout("office")).count == 4, "the ffi ligature")
        #expect(ids(try layout("office") { $0.letterSpacing = 2 }).count == 6)
        #expect(ids(try layout("office") { $0.letterSpacing = 2; $0.features = try! FontFeatures("liga=1") }).count == 4,
                "features given turn them back on")
    }

    @Test func wordSpacingWidensSpaces() throws {
        let plain = try layout("one two three"), spaced = try layout("one two three") { $0.wordSpacing = 10 }
        #expect(abs(spaced.lines[0].width - plain.lines[0].width - 20) < 1e-6)
    }

    @Test func fixedLineHeightGivesEvenRowsOverFallbackFonts() throws {
        let text = "Latin line\n日本語の行\nمرحبا بكم\nहिन्दी पाठ\nemoji 👩‍💻"
        let natural = try layout(text)
        #expect(Set(natural.lines.map { ($0.height * 1000).rounded() }).count > 1, "fallback fonts make uneven rows")
        let fixed = try layout(text) { $0.lineHeight = 56 }
        let pitches = zip(fixed.lines, fixed.lines.dropFirst()).map { $1.baseline - $0.baseline }
        #expect(pitches.allSatisfy { abs($0 - 56) < 1e-9 }, "\(pitches)")
    }

    @Test func featuresReachTheShaper() throws {
        let lining = try layout("0123456789"), oldstyle = try layout("0123456789") { $0.features = try! FontFeatures("onum") }
        #expect(lining.lines[0].runs[0].glyphs.map(\.id) != oldstyle.lines[0].runs[0].glyphs.map(\.id))
        #expect(throws: TypesetError.invalidFeature("bogus==")) { try FontFeatures("liga=0,bogus==") }
    }
}

@Suite struct JustifyTests {
    @Test(arguments: ["en", "ja", "ar", "ru"])
    func justifyFillsEveryLineButAParagraphsLast(corpus: String) throws {
        let text = try Fixtures.corpusText(corpus)
        let layout = try Typesetter(library: Fixtures.library, font: FontSpec())
            .layout(text, style: TypesetStyle(size: 30, width: 500, alignment: .justify))
        let plain = try Typesetter(library: Fixtures.library, font: FontSpec()).layout(text, style: TypesetStyle(size: 30, width: 500))
        #expect(layout.lines.map(\.text) == plain.lines.map(\.text), "the same breaks")
        for (i, line) in layout.lines.enumerated() {
            let last = i + 1 == layout.lines.count || layout.lines[i + 1].paragraph != line.paragraph
            if last {
                #expect(line.width == plain.lines[i].width)
            } else {
                #expect(abs(line.width - 500) < 1e-6, "line \(i) of \(corpus)")
                let glyphs = line.runs.flatMap(\.glyphs)
                let right = glyphs.map { $0.x + $0.advance }.max()!, left = glyphs.map(\.x).min()!
                #expect(abs(right - left - 500) < 0.5, "the glyphs span the width")
            }
        }
    }
}

/// Paragraph spacing and first-line indent, checked with numbers.
@Suite struct ParagraphSpacingTests {
    let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
    let text = "First paragraph of the text that wraps onto another line here.\nSecond paragraph, also long enough to wrap around."

    func layout(_ text: String, _ configure: (inout TypesetStyle) -> Void = { _ in }) throws -> Layout {
        var style = TypesetStyle(size: 28, width: 500)
        configure(&style)
        return try typesetter.layout(text, style: style)
    }

    @Test func paragraphSpacingOpensAGapBetweenParagraphsOnly() throws {
        let plain = try layout(text), spaced = try layout(text) { $0.paragraphSpacing = 16 }
        #expect(plain.lines.count == 4 && spaced.lines.count == 4)
        // Inside a paragraph lines touch as before; between paragraphs the gap is the spacing.
        #expect(spaced.lines[1].top == spaced.lines[0].bottom)
        #expect(abs(spaced.lines[2].top - spaced.lines[1].bottom - 16) < 1e-9)
        #expect(abs(spaced.height - plain.height - 16) < 1e-9, "no spacing after the last paragraph")
    }

    @Test func theFirstLineOfEachParagraphIsIndentedOnItsStartSide() throws {
        let plain = try layout(text), indented = try layout(text) { $0.indent = 56 }
        #expect(indented.lines.map(\.x) == [56, 0, 56, 0])
        // The first line has 56 px less room: it holds fewer words than without the indent.
        #expect(indented.lines[0].end < plain.lines[0].end)
        #expect(indented.lines[0].width <= 500 - 56)
        // Right to left: the indent is on the right.
        let arabic = try layout("مرحبا بالعالم، هذه فقرة عربية طويلة بما يكفي لتلتف على سطرين") { $0.indent = 56 }
        #expect(arabic.lines.count >= 2 && arabic.lines[0].rtl)
        #expect(abs(arabic.lines[0].x + arabic.lines[0].width - (500 - 56)) < 1e-9)
        #expect(abs(arabic.lines[1].x + arabic.lines[1].width - 500) < 1e-9)
    }

    @Test func justifiedFirstLinesStopAtTheIndent() throws {
        let justified = try layout(text) { $0.indent = 40; $0.alignment = .justify }
        #expect(abs(justified.lines[0].x - 40) < 1e-9 && abs(justified.lines[0].width - 460) < 1e-6)
        #expect(abs(justified.lines[2].x - 40) < 1e-9 && abs(justified.lines[2].width - 460) < 1e-6)
        #expect(justified.lines[1].x == 0 && justified.lines[1].width < 460, "a paragraph's last line is not stretched")
    }
}
