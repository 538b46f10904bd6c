import Glibc

/// String helpers the CLI and the library need, without Foundation (whose ICU-backed part
/// costs milliseconds at every start).
extension StringProtocol {
    /// Without leading and trailing whitespace: one slice copied (building the string from a
    /// reversed view took a character at a time, 5% of a long marked-up document's time).
    package var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }

    /// `xmlEscaped`, and what XML 1.0 cannot hold as text made safe: line breaks and tabs as
    /// character references (attributes would fold them into spaces), other control
    /// characters and U+FFFE/U+FFFF as U+FFFD. For XML documents (JUnit, XMP packets).
    package var xml10Escaped: String {
        var out = ""
        for scalar in xmlEscaped.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x09, 0x0A, 0x0D: out += "&#\(v);"
            case ..<0x20, 0xFFFE, 0xFFFF: out.unicodeScalars.append("\u{FFFD}")
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// With `&`, `<`, `>` and `"` as XML/HTML entities (text and double-quoted attributes).
    /// Read by Unicode scalar, never by Character: a `"` followed by a combining mark is one
    /// grapheme cluster that compares unequal to `"`, and would pass through unescaped.
    package var xmlEscaped: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Equal ignoring case (Unicode default case folding via lowercasing).
    package func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        lowercased() == other.lowercased()
    }
}

/// Two upper-case hex digits.
package func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}

/// `%XX` escapes (RFC 3986), the one decoder of URLs, query strings and `data:` addresses.
package enum PercentEncoding {
    /// The bytes `text` spells; with `plusIsSpace` a `+` is a space (form fields). Nil when a
    /// `%` is not followed by two hex digits.
    package static func decode(_ text: Substring, plusIsSpace: Bool = false) -> [UInt8]? {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: out.append(0x20)
            case UInt8(ascii: "%"):
                guard bytes.count >= 2, let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                out.append(value)
                bytes = bytes.dropFirst(2)
            default: out.append(byte)
            }
        }
        return out
    }
}

extension String {
    /// The string `utf8` spells, or nil when it is not UTF-8: what `String(validating:as:)`
    /// answers, faster on the hot paths (manifest rows, JSON strings). That generic call looked
    /// its metadata up for every string, a third of reading a 10,000-row manifest; here ASCII is
    /// taken at once, and other text is decoded with repair and compared with the bytes (a
    /// repair always changes them).
    package static func validatedUTF8(_ utf8: ArraySlice<UInt8>) -> String? {
        utf8.withUnsafeBufferPointer { bytes in
            var high: UInt8 = 0
            for byte in bytes { high |= byte }
            var text = String(decoding: bytes, as: UTF8.self)
            if high < 0x80 { return text }
            let same = text.utf8.count == bytes.count
                && text.withUTF8 { decoded in memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
            return same ? text : nil
        }
    }
}
