import Testing
@testable import Typeset

/// `clusters(of:)` takes ASCII followed by ASCII without grapheme breaking: it must split every
/// text exactly where Swift's `Character`s do, with the same byte and UTF-16 offsets.
@Suite struct ClusterTests {
    func reference(_ text: Substring, base: Int) -> [(Int, Int, Int, [Unicode.Scalar])] {
        var out: [(Int, Int, Int, [Unicode.Scalar])] = []
        var byte = base, unit = 0
        for character in text {
            let bytes = character.utf8.count, units = character.utf16.count
            out.append((byte, byte + bytes, unit, Array(character.unicodeScalars)))
            byte += bytes
            unit += units
        }
        return out
    }

    @Test func theFastPathSplitsAsGraphemeBreakingDoes() {
        let samples = ["plain ASCII text.", "CR\r\nLF\r\r\n\n", "e\u{301}a\u{308}x", "a\u{200D}b", "👩‍👩‍👧 ok 🇫🇷🇩🇪", "नमस्ते दुनिया",
                       "한국어 ᄀᄀᄀ각", "مرحبا، world", "x\u{FE0F}1\u{20E3}", "\u{0600}1 prepended", "tab\tend\u{7F}", "", "a", "\r"]
        for sample in samples {
            for start in [0, min(1, sample.count)] {
                let text = sample.dropFirst(start)
                let got = clusters(of: text, base: 7).map { ($0.start, $0.end, $0.utf16Start, Array($0.scalars)) }
                let want = reference(text, base: 7)
                #expect(got.count == want.count, "\(sample.debugDescription)")
                for (g, w) in zip(got, want) {
                    #expect(g.0 == w.0 && g.1 == w.1 && g.2 == w.2 && g.3 == w.3, "\(sample.debugDescription): \(g) vs \(w)")
                }
            }
        }
    }
}
