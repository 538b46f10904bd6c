/// String helpers the CLI and the library need, without Foundation (whose ICU-backed part
/// costs milliseconds at every start).
extension StringProtocol {
    /// Without leading and trailing whitespace.
    public var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// With `&`, `<`, `>` and `"` as XML/HTML entities (text and quoted attributes).
    public var xmlEscaped: String {
        var out = ""
        for character in self {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Equal ignoring case (Unicode default case folding via lowercasing).
    public func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        lowercased() == other.lowercased()
    }
}

/// Two upper-case hex digits.
public func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
