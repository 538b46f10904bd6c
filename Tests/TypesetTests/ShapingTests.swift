import Foundation
import Testing
@testable import Typeset
import TestSupport
import Support

@Suite struct ShapingTests {
    @Test(arguments: ["Stories disappear after a day", "office", "Wave AV Ta"])
    func singleLineWidthIsTheSumOfHarfBuzzAdvances(text: String) throws {
        let layout = try Fixtures.layout(text, size: 48)
        let line = try #require(layout.lines.first)
        let glyphSum = line.runs.flatMap(\.glyphs).reduce(0) { $0 + $1.advance }
        #expect(abs(line.width - glyphSum) < 1e-9)
        let hb = try Fixtures.hbShapeWidth(text, font: Fixtures.fonts + "/NotoSans-Regular.ttf", size: 48)
        // hb-shape rounds each advance to 1/100 px here: allow that per glyph.
        let glyphs = line.runs.flatMap(\.glyphs).count
        #expect(abs(line.width - hb) <= 0.005 * Double(glyphs) + 1e-9, "ours \(line.width), hb-shape \(hb)")
    }

    @Test func ligatureShapesToFewerGlyphs() throws {
        let glyphs = try Fixtures.layout("office").lines[0].runs.flatMap(\.glyphs)
        #expect(glyphs.count < 6)
        #expect(glyphs.first?.cluster == 0)
    }

    @Test func arabicIsRightToLeftAndJoined() throws {
        let word = "العربي"
        let line = try Fixtures.layout(word).lines[0]
        #expect(line.rtl)
        let run = try #require(line.runs.first)
        #expect(run.rtl)
        #expect(line.fonts == ["Noto Sans Arabic"])
        // Visual order: the first character (cluster 0) is the rightmost glyph.
        let clusters = run.glyphs.map(\.cluster)
        #expect(clusters == clusters.sorted(by: >))
        #expect(run.glyphs.last?.cluster == 0)
        // Joined: the glyphs differ from the letters shaped one by one (isolated forms).
        let isolated = try word.map { try Fixtures.layout(String($0)).lines[0].runs[0].glyphs[0].id }
        #expect(Set(run.glyphs.map(\.id)).isDisjoint(with: Set(isolated.dropFirst().dropLast())))
    }

    @Test func devanagariConjunctsFormOneCluster() throws {
        let glyphs = try Fixtures.layout("क्ष").lines[0].runs.flatMap(\.glyphs)
        #expect(glyphs.count == 1, "क + ् + ष is one conjunct glyph, got \(glyphs.count)")
    }

    @Test func emojiZWJSequenceIsOneClusterInTheEmojiFont() throws {
        let layout = try Fixtures.layout("dev 👩‍💻!")
        let line = layout.lines[0]
        let emojiRuns = line.runs.filter { layout.fonts[$0.font].isColor }
        #expect(emojiRuns.count == 1)
        let run = try #require(emojiRuns.first)
        #expect(layout.fonts[run.font].family == "Noto Color Emoji")
        #expect(run.glyphs.count == 1)
        #expect(run.glyphs[0].cluster == 4)
        #expect(run.end - run.start == "👩‍💻".utf8.count)
        // The space before it is not shaped with the emoji font.
        #expect(line.runs.first { $0.start == 0 }.map { layout.fonts[$0.font].family } == "Noto Sans")
    }

    @Test func flagsAndKeycapsUseTheEmojiFont() throws {
        let layout = try Fixtures.layout("🇯🇵 1️⃣")
        let families = layout.lines[0].runs.filter { !$0.glyphs.isEmpty }.map { layout.fonts[$0.font].family }
        #expect(families.filter { $0 == "Noto Color Emoji" }.count >= 1)
        #expect(layout.lines[0].runs.flatMap(\.glyphs).filter { $0.cluster == 0 }.count == 1)
    }

    @Test func mixedBidiReordersPerLine() throws {
        // LTR paragraph: Latin, then the Arabic word (right to left), then Latin.
        let text = "Hello مرحبا world"
        let line = try Fixtures.layout(text).lines[0]
        #expect(!line.rtl)
        let visual = line.runs.map(\.start)
        #expect(visual == visual.sorted(), "LTR paragraph keeps runs in logical order")
        #expect(line.runs.contains { $0.rtl })
        // The same text in an RTL paragraph: the runs go right to left.
        let rtl = try Fixtures.layout(text, direction: .rtl).lines[0]
        #expect(rtl.rtl)
        #expect(rtl.runs.map(\.start) == rtl.runs.map(\.start).sorted(by: >))
        // Auto direction follows the first strong character.
        #expect(try Fixtures.layout("مرحبا Hello").lines[0].rtl)
    }

    @Test func mixedCorpusUsesEveryScriptFont() throws {
        let layout = try Fixtures.layout(try Fixtures.corpusText("mixed"))
        let families = Set(layout.lines.flatMap(\.fonts))
        #expect(families == ["Noto Sans", "Noto Sans Arabic", "Noto Sans CJK JP", "Noto Color Emoji"])
    }

    @Test func alignmentPlacesLines() throws {
        let text = "a\nwide line here"
        let left = try Fixtures.layout(text, width: 600, align: .left)
        let center = try Fixtures.layout(text, width: 600, align: .center)
        let right = try Fixtures.layout(text, width: 600, align: .right)
        for i in 0..<2 {
            let w = left.lines[i].width
            #expect(left.lines[i].x == 0)
            #expect(abs(center.lines[i].x - (600 - w) / 2) < 1e-9)
            #expect(abs(right.lines[i].x - (600 - w)) < 1e-9)
        }
        // start/end follow each paragraph's direction.
        let mixed = try Fixtures.layout("abc\nمرحبا", width: 600, align: .start)
        #expect(mixed.lines[0].x == 0)
        #expect(abs(mixed.lines[1].x + mixed.lines[1].width - 600) < 1e-9)
        let end = try Fixtures.layout("abc\nمرحبا", width: 600, align: .end)
        #expect(abs(end.lines[0].x + end.lines[0].width - 600) < 1e-9)
        #expect(end.lines[1].x == 0)
    }

    @Test func linesStackWithoutGapsAndSpacingScales() throws {
        let one = try Fixtures.layout("a\nb\nc")
        for i in 1..<3 { #expect(one.lines[i].top == one.lines[i - 1].bottom) }
        let spaced = try Typesetter(library: Fixtures.library, font: FontSpec())
            .layout("a\nb", style: TypesetStyle(size: 48, lineSpacing: 1.5))
        #expect(abs(spaced.lines[0].height - one.lines[0].height * 1.5) < 1e-9)
        #expect(abs(spaced.height - one.lines[0].height * 3) < 1e-9)
    }

    @Test func byteRangesAreUTF8Offsets() throws {
        let text = "αβγ δεζ\n春夏"
        let layout = try Fixtures.layout(text)
        #expect(layout.lines.map(\.start) == [0, 14])
        #expect(layout.lines.map(\.end) == [13, 20])
        #expect(layout.lines.map(\.text) == ["αβγ δεζ", "春夏"])
    }
}

@Suite struct FontTests {
    /// One mapping per font file: every size and index of a file reads the same bytes.
    @Test func oneBlobPerFontFile() throws {
        let library = Fixtures.library
        let face = try library.chain(for: FontSpec(family: "Noto Sans")).primary.face
        let small = try library.shapingFont(face, size: 12), large = try library.shapingFont(face, size: 96)
        let blob = try library.blob(of: face)
        #expect(small.blobIdentity == ObjectIdentifier(blob) && large.blobIdentity == ObjectIdentifier(blob))
        #expect(blob.bytes.count == (try FileManager.default.attributesOfItem(atPath: face.file)[.size] as? Int))
    }

    @Test func boundedCacheLetsTheOldestGo() {
        var cache = BoundedCache<Int, String>(limit: 2)
        #expect(cache.insert("a", for: 1).isEmpty && cache.insert("b", for: 2).isEmpty)
        #expect(cache.insert("b2", for: 2).isEmpty, "replacing a key evicts nothing")
        #expect(cache.insert("c", for: 3) == ["a"])
        #expect(cache[1] == nil && cache[2] == "b2" && cache[3] == "c")
        #expect(cache.update(3) { $0 += "!" } != nil && cache[3] == "c!")
        #expect(cache.update(1) { $0 += "!" } == nil)
    }

    @Test func fontSpecParsesPangoForm() throws {
        let spec = try FontSpec.parse("Noto Sans Bold Italic 48") { _ in false }
        #expect(spec.family == "Noto Sans")
        #expect(spec.weight == 200 && spec.slant == 100 && spec.size == 48)
        #expect(try FontSpec.parse("fonts/NotoSans-Regular.ttf") { _ in false }.file == "fonts/NotoSans-Regular.ttf")
    }

    @Test func boldRequestPicksTheBoldFace() throws {
        let layout = try Fixtures.layout("Bold", font: "Noto Sans Bold")
        #expect(layout.fonts[0].style == "Bold")
    }

    @Test func unknownFamilySuggestsCloseNames() throws {
        #expect(throws: TypesetError.unknownFont("Noto Sanz", suggestions: ["Noto Sans"])) {
            try Fixtures.layout("x", font: "Noto Sanz")
        }
    }

    @Test func fontFileThatIsNotAFont() throws {
        let path = Fixtures.fonts + "/README.md"
        #expect(throws: TypesetError.notAFont(path)) { try Fixtures.layout("x", font: path) }
        #expect(throws: TypesetError.unreadableFontFile("/nonexistent/font.ttf")) {
            try Fixtures.layout("x", font: "/nonexistent/font.ttf")
        }
    }

    @Test func fontFileIsUsedDirectly() throws {
        let layout = try Fixtures.layout("Hi", font: Fixtures.fonts + "/NotoSans-Bold.ttf")
        #expect(layout.fonts[0].file.hasSuffix("NotoSans-Bold.ttf"))
    }

    @Test func invalidSizesAreRejected() throws {
        for bad in [0.0, -3, .infinity, .nan] {
            #expect(throws: TypesetError.self) { try Fixtures.layout("x", size: bad) }
            #expect(throws: TypesetError.self) { try Fixtures.layout("x", width: bad) }
        }
    }
}
