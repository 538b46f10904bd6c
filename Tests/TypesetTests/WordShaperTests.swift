import Foundation
import Testing
@testable import Typeset
import TestSupport
import CHarfBuzz

/// Words shaped one at a time from a cache give exactly the glyphs of the run shaped whole,
/// for every pinned font the check lets through, and the check holds back what it must.
@Suite struct WordShaperTests {
    func dump(_ glyphs: [ShapedGlyph]) -> [String] {
        glyphs.map { "\($0.id) \($0.cluster) \($0.advance) \($0.xOffset) \($0.yOffset) \($0.unsafeToBreak)" }
    }

    /// The run shaped whole and by words (twice: the second time from the cache).
    func both(_ text: String, family: String, script: String, rtl: Bool = false, range: Range<Int>? = nil,
              features: [hb_feature_t] = []) throws -> (whole: [String], words: [String], again: [String], alone: Bool) {
        let library = Fixtures.library
        let face = try library.chain(for: FontSpec(family: family)).primary.face
        let font = try library.shapingFont(face, size: 23)
        let bytes = Array(text.utf8)
        let shaper = WordShaper()
        return bytes.withUnsafeBufferPointer { utf8 in
            let run = range ?? 0..<utf8.count
            let shape = { (whole: Bool) in
                whole ? font.shape(utf8, range: run, rtl: rtl, script: openTypeTag(script), language: nil, features: features)
                    : shaper.shape(font, utf8, range: run, rtl: rtl, script: openTypeTag(script), language: nil, features: features)
            }
            return (dump(shape(true)), dump(shape(false)), dump(shape(false)), font.spaceStandsAlone)
        }
    }

    @Test(arguments: ["Noto Sans", "Noto Sans Mono", "Inter", "Noto Sans CJK JP"])
    func wordsGiveTheWholeRunsGlyphs(family: String) throws {
        // Kerning pairs, ligatures, repeated words and runs of spaces.
        let text = try Fixtures.corpusText("en") + " office  affine AVATAR Tyre. To WAVE,  office office Ta  fi fl ffi"
        let result = try both(text, family: family, script: "Latn")
        #expect(result.words == result.whole)
        #expect(result.again == result.whole)
    }

    @Test func cyrillicWordsToo() throws {
        let result = try both(try Fixtures.corpusText("ru"), family: "Noto Sans", script: "Cyrl")
        #expect(result.alone)
        #expect(result.words == result.whole)
    }

    /// Right to left: the words of an Arabic text, each alone, in reverse order, are
    /// HarfBuzz's glyphs for the whole run (joining forms, marks, the lam-alef ligature).
    @Test func arabicWordsToo() throws {
        let text = try Fixtures.corpusText("ar") + " لا الله  كتاب، كتابٌ كِتَابٌ لا"
        let result = try both(text, family: "Noto Sans Arabic", script: "Arab", rtl: true)
        #expect(result.alone, "Noto Sans Arabic holds a lookup on the space: the cache would not be used")
        #expect(result.words == result.whole)
        #expect(result.again == result.whole)
    }

    /// A run that ends or starts inside a word (a bold span over some of its letters): the
    /// piece at the edge joins the letters past it, as the whole run does, though the same
    /// letters stand cached as a word of their own ("كت" alone, then the start of "كتاب").
    @Test func anArabicWordCutByARunEdgeJoinsAcrossIt() throws {
        let text = "كت كت كتاب"
        let cut = Array(text.utf8).count - 4  // the run ends before the last two letters
        let end = try both(text, family: "Noto Sans Arabic", script: "Arab", rtl: true, range: 0..<cut)
        #expect(end.words == end.whole)
        let start = "اب كت اب"
        let begin = try both("كت" + start, family: "Noto Sans Arabic", script: "Arab", rtl: true, range: 4..<Array(("كت" + start).utf8).count)
        #expect(begin.words == begin.whole)
    }

    @Test func notoSansLetsWordsStandAlone() throws {
        // Else the cache would never be used and the tests above would prove nothing.
        #expect(try both("a b", family: "Noto Sans", script: "Latn").alone)
    }

    @Test func aFeatureOverPartOfTheTextShapesTheRunWhole() throws {
        // Small capitals over "fine" only: the cache keys words without their place in the text.
        var feature = hb_feature_t()
        feature.tag = openTypeTag("smcp")
        (feature.value, feature.start, feature.end) = (1, 7, 11)
        let result = try both("affine affine affine", family: "Noto Sans", script: "Latn", features: [feature])
        #expect(result.words == result.whole)
    }

    @Test func layoutsSharingTheirWordsMatchLayoutsWithout() throws {
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec(family: "Noto Sans"))
        let words = WordShapers()
        for (text, size) in [(try Fixtures.corpusText("en"), 11.0), (try Fixtures.corpusText("ru"), 11), (try Fixtures.corpusText("en"), 30),
                             (try Fixtures.corpusText("mixed"), 11)] {
            var style = TypesetStyle(size: size)
            style.width = 300
            #expect(try typesetter.layout(text, style: style, words: words).lines == typesetter.layout(text, style: style).lines)
        }
    }
}

extension WordShaperTests {
    @Test func aHugeWordIsShapedButNotKept() throws {
        // One 10,000-letter "word" twice: both right, and not kept (the cache would hold it
        // beside the run's own glyphs); the short words around it are kept.
        let long = String(repeating: "ab", count: 5_000)
        let text = Array("\(long) x \(long) xy".utf8)
        let font = try Fixtures.library.shapingFont(try Fixtures.library.chain(for: FontSpec(family: "Noto Sans")).primary.face, size: 23)
        let shaper = WordShaper()
        text.withUnsafeBufferPointer { utf8 in
            let whole = dump(font.shape(utf8, range: 0..<utf8.count, rtl: false, script: openTypeTag("Latn"), language: nil))
            for _ in 0..<2 {
                let words = shaper.shape(font, utf8, range: 0..<utf8.count, rtl: false, script: openTypeTag("Latn"), language: nil, features: [])
                #expect(dump(words) == whole)
            }
        }
        #expect(shaper.cachedBytes > 0)
        #expect(shaper.cachedBytes < 2_000)
    }
}
