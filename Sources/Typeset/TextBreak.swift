import CTextBreak

/// Swift face of the ICU shim: UAX #14 break opportunities, UAX #9 levels and scripts.
enum TextBreak {
    struct Break: Equatable {
        /// UTF-16 offset at which a line may end.
        var offset: Int
        var mandatory: Bool
        /// A point inside a word from the hyphenation dictionary: a line ending here shows a hyphen.
        var hyphenation = false
    }

    static func lineBreaks(_ utf16: [UInt16], locale: String = "") throws -> [Break] {
        let capacity = utf16.count + 1
        var positions = [Int32](repeating: 0, count: capacity)
        var mandatory = [UInt8](repeating: 0, count: capacity)
        var status: Int32 = 0
        let count = utf16.withUnsafeBufferPointer { text in
            hl_line_breaks(text.baseAddress, Int32(text.count), locale, &positions, &mandatory,
                           Int32(capacity), &status)
        }
        guard count >= 0 else { throw TypesetError.icu("line breaking failed: \(statusName(status))") }
        return (0..<Int(count)).map { Break(offset: Int(positions[$0]), mandatory: mandatory[$0] != 0) }
    }

    /// Extended_Pictographic (UTS #51), from ICU.
    static func isExtendedPictographic(_ scalar: Unicode.Scalar) -> Bool { hl_is_extended_pictographic(scalar.value) != 0 }

    /// Embedding level of every UTF-16 unit, and the paragraph level.
    static func bidiLevels(_ utf16: [UInt16], base: Int32) throws -> (levels: [UInt8], paragraph: UInt8) {
        var levels = [UInt8](repeating: 0, count: utf16.count)
        var status: Int32 = 0
        let para = utf16.withUnsafeBufferPointer { text in
            hl_bidi_levels(text.baseAddress, Int32(text.count), base, &levels, &status)
        }
        guard para >= 0 else { throw TypesetError.icu("bidi failed: \(statusName(status))") }
        return (levels, UInt8(para))
    }

    /// The scalar's script (ISO 15924 tag). ASCII is answered here: letters are Latin, the
    /// rest Common (ICU says the same), without a call per character of a Latin text.
    static func script(of scalar: Unicode.Scalar) -> UInt32 {
        let v = scalar.value
        guard v < 0x80 else { return hl_script_tag(v) }
        return (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A ? latin : common
    }

    static let latin: UInt32 = 0x4C61_746E  // Latn
    static let common: UInt32 = 0x5A79_7979  // Zyyy
    static let inherited: UInt32 = 0x5A69_6E68  // Zinh

    private static func statusName(_ status: Int32) -> String {
        String(cString: hl_status_name(status))
    }
}
