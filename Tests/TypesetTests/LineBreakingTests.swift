import Foundation
import Testing
@testable import Typeset
import TestSupport

/// Greedy filling: every line fits, and taking the next segment (up to the next break
/// opportunity) would not have fitted.
func checkGreedy(_ layout: Layout, width: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let bytes = Array(layout.text.utf8)
    for (i, line) in layout.lines.enumerated() {
        #expect(line.width <= width + 1e-6, "line \(i) '\(line.text)' is \(line.width) > \(width)",
                sourceLocation: sourceLocation)
        guard i + 1 < layout.lines.count, layout.lines[i + 1].paragraph == line.paragraph else { continue }
        let next = Array(layout.lines[i + 1].text.utf16)
        let firstBreak = try TextBreak.lineBreaks(next).first!.offset
        let segment = String(decoding: next[..<firstBreak], as: UTF16.self)
        let extended = (String(decoding: bytes[line.start..<line.end], as: UTF8.self) + segment)
            .trimmingCharacters(in: .whitespaces)
        let extendedWidth = try Fixtures.layout(extended, size: layout.size).lines[0].width
        #expect(extendedWidth > width, "line \(i) could have taken '\(segment)'", sourceLocation: sourceLocation)
    }
}

@Suite struct LineBreakingTests {
    @Test(arguments: [900.0, 600.0, 300.0])
    func latinLinesFitAndAreFull(width: Double) throws {
        let text = try Fixtures.corpusText("en")
        let layout = try Fixtures.layout(text, width: width)
        #expect(layout.lines.count == (try independentLatinLineCount(text, width: width, size: 48)))
        try checkGreedy(layout, width: width)
        // Soft breaks fall after a space; the space stays in the range but not in the width.
        for (i, line) in layout.lines.enumerated().dropLast() where layout.lines[i + 1].paragraph == line.paragraph {
            #expect(line.text.hasSuffix(" "))
        }
    }

    @Test func knownBreakOffsets() throws {
        // "aaa bbb ccc": at a width that holds two words, the break is after "bbb ".
        let two = try Fixtures.layout("aaa bbb").lines[0].width
        let layout = try Fixtures.layout("aaa bbb ccc", width: two + 1)
        #expect(layout.breakOffsets == [8, 11])
        #expect(layout.lines.map(\.start) == [0, 8])
        #expect(abs(layout.lines[0].width - two) < 1e-9, "trailing space does not count")
    }

    @Test func hardBreaks() throws {
        let layout = try Fixtures.layout("a\nb\r\nc\rd\u{2029}e")
        #expect(layout.lines.map(\.start) == [0, 2, 5, 7, 11])
        #expect(layout.lines.map(\.end) == [1, 3, 6, 8, 12])
        #expect(layout.lines.map(\.paragraph) == [0, 1, 2, 3, 4])
        let empty = try Fixtures.layout("a\n\nb")
        #expect(empty.lines.count == 3)
        #expect(empty.lines[1].start == 2 && empty.lines[1].end == 2 && empty.lines[1].height > 0)
    }

    @Test func noWidthMeansNoWrapping() throws {
        let text = try Fixtures.corpusText("ru")
        #expect(try Fixtures.layout(text).lines.count == 1)
    }

    @Test func longWordBreaksAtGraphemes() throws {
        let word = "Donaudampfschifffahrtsgesellschaft"
        let layout = try Fixtures.layout(word, width: 200)
        #expect(layout.lines.count > 1)
        try checkWidths(layout, 200)
        #expect(layout.lines.map(\.text).joined() == word)
        // Combining sequences stay whole: é as e + U+0301 is never split.
        let accented = String(repeating: "e\u{301}", count: 30)
        let lines = try Fixtures.layout(accented, width: 100).lines
        #expect(lines.allSatisfy { $0.text.unicodeScalars.first != "\u{301}" })
        #expect(lines.map(\.text).joined() == accented)
    }

    private func checkWidths(_ layout: Layout, _ width: Double) throws {
        for line in layout.lines { #expect(line.width <= width + 1e-6) }
    }

    @Test(arguments: [940.0, 700.0, 400.0])
    func japaneseBreaksBetweenIdeographsNotBeforeClosingPunctuation(width: Double) throws {
        let text = try Fixtures.corpusText("ja")
        let layout = try Fixtures.layout(text, size: 64, width: width)
        for line in layout.lines {
            #expect(line.width <= width + 1e-6)
            #expect(!"。、」』）".contains(line.text.first ?? " "), "line starts with closing punctuation: \(line.text)")
        }
        #expect(layout.lines.map(\.text).joined(separator: "").replacingOccurrences(of: "\n", with: "")
                == text.replacingOccurrences(of: "\n", with: ""))
        try checkGreedy(layout, width: width)
    }

    @Test(arguments: [940.0, 700.0, 400.0])
    func japaneseLineCountsAt64px(width: Double) throws {
        let text = try Fixtures.corpusText("ja")
        // Every character of ja.txt is one em (64 px) wide: a line holds floor(width / 64)
        // characters, one fewer when the next would be closing punctuation (kinsoku).
        let perLine = Int(width / 64)
        var expected: [String] = []
        for paragraph in text.split(separator: "\n").map(Array.init) {
            var i = 0
            while i < paragraph.count {
                var end = min(i + perLine, paragraph.count)
                while end < paragraph.count, "。、".contains(paragraph[end]) { end -= 1 }
                expected.append(String(paragraph[i..<end]))
                i = end
            }
        }
        let layout = try Fixtures.layout(text, size: 64, width: width)
        #expect(layout.lines.map(\.text) == expected)
    }

    @Test(arguments: [900.0, 500.0])
    func chineseBreaks(width: Double) throws {
        let layout = try Fixtures.layout(try Fixtures.corpusText("zh"), width: width)
        #expect(layout.lines.count > 1)
        for line in layout.lines {
            #expect(line.width <= width + 1e-6)
            #expect(!"，。、".contains(line.text.first!))
        }
    }

    @Test(arguments: [700.0, 400.0])
    func arabicAndDevanagariWrap(width: Double) throws {
        for name in ["ar", "hi"] {
            let layout = try Fixtures.layout(try Fixtures.corpusText(name), width: width)
            #expect(layout.lines.count >= 2)
            try checkGreedy(layout, width: width)
        }
    }
}

@Suite struct ReshapingTests {
    /// Every line's glyphs are what HarfBuzz gives for the line's text on its own: a cut inside
    /// a ligature ("ffi") or at a glyph marked unsafe to break is re-shaped on both sides.
    @Test(arguments: [90.0, 110.0, 140.0, 170.0])
    func linesCutInsideLigaturesAreReshaped(width: Double) throws {
        let text = "officeaffinesufficientofficial"
        let layout = try Fixtures.layout(text, width: width)
        #expect(layout.lines.count > 1)
        #expect(layout.lines.map(\.text).joined() == text)
        for line in layout.lines {
            let alone = try Fixtures.layout(line.text).lines[0]
            var glyphs = line.runs.flatMap(\.glyphs)
            // A cut inside the word ends with the hyphen drawn after the line's own glyphs.
            #expect(line.hyphen == (line.end < text.utf8.count))
            let hyphen = line.hyphen ? glyphs.removeLast().advance : 0
            #expect(glyphs.map(\.id) == alone.runs.flatMap { $0.glyphs.map(\.id) }, "line '\(line.text)'")
            #expect(abs(line.width - hyphen - alone.width) < 1e-9)
        }
    }

    /// A long paragraph with many runs per line (Latin, Arabic, CJK, emoji): each line holds
    /// exactly the glyphs of its own text (as a multiset: bidi may order runs differently when
    /// the line is laid out alone).
    @Test func longMixedParagraphLinesHoldTheirOwnGlyphs() throws {
        let unit = "Release notes: الإصدار 2.0 is out, with 春 support and emoji 👩‍💻🎉 in every card. "
        let text = String(repeating: unit, count: 12)
        let layout = try Fixtures.layout(text, width: 420, direction: .ltr)
        #expect(layout.lines.count > 20)
        #expect(layout.lines.map(\.text).joined() == text)
        for line in layout.lines {
            let alone = try Fixtures.layout(line.text, direction: .ltr).lines[0]
            #expect(line.runs.flatMap { $0.glyphs.map(\.id) }.sorted() == alone.runs.flatMap { $0.glyphs.map(\.id) }.sorted(),
                    "line '\(line.text)'")
            #expect(abs(line.width - alone.width) < 1e-6)
        }
    }

    /// Odd text (controls, bidi overrides, lone joiners and marks, private use, noncharacters,
    /// tags, flags without partners) lays out, and lines cover the text in order.
    @Test(arguments: [
        "\u{202E}abc\u{202C} \u{2066}שלום\u{2069}", "\u{200D}\u{200D}", "\u{301}\u{302}a", "\u{E000}\u{F0000}",
        String(String.UnicodeScalarView([0x78, 0xFFFF, 0x10FFFF, 0xFDD0, 0x79].map { Unicode.Scalar($0)! })), "🇺🇸🇯", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "\u{0}\u{1}\t\u{7F}",
        "a\u{2028}b\u{85}c", "١٢٣ abc ٤٥٦", String(repeating: "\u{FE0F}", count: 5),
    ])
    func oddTextLaysOut(text: String) throws {
        for width in [nil, 30.0] as [Double?] {
            let layout = try Fixtures.layout(text, width: width)
            #expect(!layout.lines.isEmpty)
            for (a, b) in zip(layout.lines, layout.lines.dropFirst()) { #expect(a.end <= b.start) }
            #expect(layout.lines.last!.end <= text.utf8.count)
        }
    }
}

/// Hyphens that show: at a soft hyphen where the line breaks, and where a word longer than the
/// line is cut, in scripts that hyphenate; never in Japanese; counted in the line's width.
@Suite struct HyphenTests {
    func lines(_ text: String, width: Double, size: Double = 48, breakHyphens: Bool = true) throws -> [Line] {
        var style = TypesetStyle(size: size, width: width)
        style.breakHyphens = breakHyphens
        return try Typesetter(library: Fixtures.library, font: FontSpec()).layout(text, style: style).lines
    }

    @Test func aSoftHyphenAtTheBreakShows() throws {
        let result = try lines("Inter\u{00AD}nationalization", width: 200)
        #expect(result[0].text == "Inter\u{00AD}" && result[0].hyphen)
        #expect(!result.dropFirst().contains { $0.text.hasPrefix("-") })
        // The hyphen is drawn: the line is wider than the bare word.
        let bare = try lines("Inter", width: 1000)[0].width
        #expect(result[0].width > bare + 5)
        // A soft hyphen where the line does not break shows nothing.
        let unbroken = try lines("Inter\u{00AD}national", width: 2000)
        let plain = try lines("International", width: 2000)[0].width
        #expect(unbroken.count == 1 && !unbroken[0].hyphen && abs(unbroken[0].width - plain) < 0.01)
    }

    @Test func anOverlongWordIsCutWithAHyphen() throws {
        let result = try lines("Internationalization", width: 300)
        #expect(result.count == 2 && result[0].hyphen && !result[1].hyphen)
        #expect(result[0].width <= 300)
        let russian = try lines("Достопримечательность", width: 250)
        #expect(russian.count > 1 && russian[0].hyphen)
        let bare = try lines("Internationalization", width: 300, breakHyphens: false)
        #expect(!bare[0].hyphen)
    }

    @Test func japaneseGetsNoHyphen() throws {
        let result = try lines("春はあけぼのやうやう白くなりゆく山ぎはすこしあかりて紫だちたる雲のほそくたなびきたる", width: 200)
        #expect(result.count > 2 && !result.contains { $0.hyphen })
    }
}

/// --max-lines: the text stops after N lines, the last ending with the ellipsis at the logical
/// end (left in right-to-left lines), whole grapheme clusters only.
@Suite struct ClampTests {
    func layout(_ text: String, lines: Int, width: Double = 300, ellipsis: String = "…") throws -> Layout {
        var style = TypesetStyle(size: 40, width: width)
        style.maxLines = lines
        style.ellipsis = ellipsis
        return try Typesetter(library: Fixtures.library, font: FontSpec()).layout(text, style: style)
    }

    @Test(arguments: [("The quick brown fox jumps over the lazy dog again and again until the day ends", false),
                      ("القصص تختفي بعد يوم، لكن شكلها يبقى مع الناس طويلا بعد ذلك اليوم", true),
                      ("春はあけぼのやうやう白くなりゆく山ぎはすこしあかりて紫だちたる雲のほそくたなびきたる", false)])
    func clampsWithTheEllipsisAtTheLogicalEnd(text: String, rtl: Bool) throws {
        let result = try layout(text, lines: 2)
        #expect(result.lines.count == 2)
        #expect(result.text.hasSuffix("…"))
        let cut = try #require(result.truncatedAt)
        #expect(text.utf8.starts(with: result.text.utf8.prefix(cut)), "the kept text is a prefix of the input")
        #expect(String(decoding: Array(text.utf8)[..<cut], as: UTF8.self).utf8.count == cut, "cut on a character boundary")
        let last = result.lines[1]
        let glyphs = last.runs.flatMap(\.glyphs)
        let ellipsis = try #require(glyphs.first { $0.cluster == cut })
        if rtl { #expect(ellipsis.x == glyphs.map(\.x).min()) } else { #expect(ellipsis.x == glyphs.map(\.x).max()) }
        // Without the clamp the text takes more lines.
        let untouched = try layout(text, lines: 100)
        #expect(untouched.truncatedAt == nil && untouched.lines.count > 2)
    }
}
