import Support
/// Everything that can go wrong while laying out text, each with a one-line description that
/// names the offending input.
package enum TypesetError: Error, Equatable, CustomStringConvertible {
    case unknownFont(String, suggestions: [String])
    case notAFont(String)
    case unreadableFontFile(String)
    case damagedFont(String, String)
    case invalidFontSpec(String)
    case invalidFeature(String)
    case invalidVariation(String)
    case invalidLanguage(String)
    case invalidNumber(String, Double)
    case outOfRange(String, Double, ClosedRange<Double>)
    case fontconfig(String)
    case badFontFolder(String, String)
    case icu(String)
    case harfbuzz(String)
    case invalidSpan(Int, Int, Int)

    package var description: String {
        switch self {
        case let .unknownFont(name, suggestions):
            let hint = suggestions.isEmpty ? "" : "; " + didYouMean(suggestions)
            return "unknown font family '\(name)'\(hint)"
        case let .badFontFolder(path, why): return "font folder '\(path)' \(why)"
        case let .notAFont(path): return "'\(path)' is not a font file FreeType can read"
        case let .unreadableFontFile(path): return "cannot read font file '\(path)'"
        case let .damagedFont(path, why): return "font file '\(path)' is damaged: \(why)"
        case let .invalidFontSpec(spec): return "cannot parse font description '\(spec)'"
        case let .invalidVariation(item): return "'\(item)' is not a font axis setting (like wght=650 or wdth=80)"
        case let .invalidLanguage(tag):
            return "'\(tag.count > 40 ? tag.prefix(40) + "..." : tag)' is not a BCP 47 language tag (like en, ja or zh-Hant; subtags of 1 to 8 letters or digits, at most \(LanguageTags.maxLength) characters)"
        case let .invalidFeature(item): return "'\(item)' is not an OpenType feature setting (like liga=0, ss01 or tnum)"
        case let .invalidNumber(name, value): return "\(name) must be a positive finite number, got \(value)"
        case let .outOfRange(name, value, range):
            return "\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(value)"
        case let .fontconfig(message): return "fontconfig: \(message)"
        case let .icu(message): return "ICU: \(message)"
        case let .harfbuzz(message): return "HarfBuzz: \(message)"
        case let .invalidSpan(start, end, length):
            return "span \(start)..<\(end) is not a range of the text's \(length) bytes in order, apart from the spans before it"
        }
    }
}

extension TypesetError {
    /// Whether this is about the font file (or font given as bytes) called `name`.
    package func names(_ name: String) -> Bool {
        switch self {
        case let .notAFont(file), let .unreadableFontFile(file), let .damagedFont(file, _): return file == name
        default: return false
        }
    }
}
