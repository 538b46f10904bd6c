/// A bound on combining marks per base character. Text with thousands of marks on one base is
/// never real writing, but it makes grapheme segmentation and HarfBuzz's mark attachment
/// quadratic (65,000 marks abort inside HarfBuzz). UAX #15's stream-safe format allows 30
/// non-starters in a row; we keep that many per base and drop the rest, counting them so the
/// caller can say so. Invisible extenders (ZWJ, ZWNJ, CGJ, variation selectors) count too, so
/// interleaving them does not reset the count.
package enum MarkLimit {
    package static let marksPerBase = 30

    /// `text` with at most `marksPerBase` marks after each base, and how many were dropped.
    /// Returns the text itself (no copy) when nothing is over the limit.
    package static func apply(_ text: String) -> (text: String, dropped: Int) {
        var run = 0
        var over = false
        for scalar in text.unicodeScalars {
            run = extendsCluster(scalar) ? run + 1 : 0
            if run > marksPerBase { over = true; break }
        }
        guard over else { return (text, 0) }
        var out = String.UnicodeScalarView()
        var dropped = 0
        run = 0
        for scalar in text.unicodeScalars {
            run = extendsCluster(scalar) ? run + 1 : 0
            if run > marksPerBase { dropped += 1 } else { out.append(scalar) }
        }
        return (String(out), dropped)
    }

    @inline(__always)
    static func extendsCluster(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII is never a mark: the common case stays cheap; nor are the letters of the
        // scripts long texts are mostly written in (Cyrillic, Arabic, kana, CJK, Hangul).
        let v = scalar.value
        if v < 0x300 || (0x0400...0x0482).contains(v) || (0x0621...0x064A).contains(v) || (0x3041...0x3096).contains(v)
            || (0x30A1...0x30FA).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v) { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar.value == 0x200C || scalar.value == 0x200D
        }
    }
}
