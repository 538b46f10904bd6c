import Foundation
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

    /// `Cluster.isWhitespace` answers from a list of its own: it must be Unicode's White_Space,
    /// as PropList.txt (Debian's unicode-data, which the setup installs) and Swift's tables say.
    @Test func whitespaceIsUnicodesWhiteSpace() throws {
        let file = "/usr/share/unicode/PropList.txt"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var listed = Set<UInt32>()
        for line in text.split(separator: "\n") where line.contains("; White_Space") {
            let range = line.prefix { $0 != " " && $0 != ";" }.split(separator: ".").compactMap { UInt32($0, radix: 16) }
            guard let low = range.first, let high = range.last else { continue }
            listed.formUnion(low...high)
        }
        #expect(listed.count == 25, "PropList.txt lists \(listed.count) White_Space code points")
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(Cluster.isWhitespace(scalar) == listed.contains(value), "U+\(String(value, radix: 16))")
            #expect(Cluster.isWhitespace(scalar) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
    }
}
