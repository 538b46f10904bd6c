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
        // ASCII is never a mark: the common case stays cheap.
        if scalar.value < 0x300 { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar.value == 0x200C || scalar.value == 0x200D
        }
    }
}
