import Support
/// A font request in pango-view's form ("Noto Sans Bold 48"), or a path to a font file.
public struct FontSpec: Hashable, Sendable {
    public var family: String?
    public var file: String?
    /// Fontconfig weight (80 regular, 200 bold) and slant (0 roman, 100 italic, 110 oblique).
    public var weight: Int
    public var slant: Int
    public var size: Double?

    public static let defaultFamily = "Noto Sans"

    public init(family: String? = FontSpec.defaultFamily, file: String? = nil, weight: Int = 80,
                slant: Int = 0, size: Double? = nil) {
        self.family = family
        self.file = file
        self.weight = weight
        self.slant = slant
        self.size = size
    }

    /// Words pango accepts after the family, with their Fontconfig weight or slant.
    private static let weights: [String: Int] = [
        "thin": 0, "ultralight": 40, "extralight": 40, "light": 50, "semilight": 55, "book": 75,
        "regular": 80, "normal": 80, "medium": 100, "semibold": 180, "demibold": 180,
        "bold": 200, "ultrabold": 205, "extrabold": 205, "heavy": 210, "black": 210,
    ]
    private static let slants: [String: Int] = ["roman": 0, "italic": 100, "oblique": 110]

    /// Parses `"Family [Style ...] [Size]"`; anything that names an existing file, or looks like
    /// a path to a font file, is taken as a file.
    public static func parse(_ text: String, fileExists: (String) -> Bool) throws -> FontSpec {
        let trimmed = text.trimmed
        guard !trimmed.isEmpty else { throw TypesetError.invalidFontSpec(text) }
        let lower = trimmed.lowercased()
        let fontExtensions = [".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2", ".pfb"]
        if trimmed.contains("/") || fontExtensions.contains(where: lower.hasSuffix) || fileExists(trimmed) {
            return FontSpec(family: nil, file: trimmed)
        }
        var words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var spec = FontSpec(family: nil)
        if let last = words.last, words.count > 1 {
            let number = last.hasSuffix("px") ? String(last.dropLast(2)) : last
            if let size = Double(number) {
                spec.size = size
                words.removeLast()
            }
        }
        while words.count > 1 {
            let word = words.last!.lowercased().filter { $0 != "-" }
            if let weight = weights[word] {
                spec.weight = weight
            } else if let slant = slants[word] {
                spec.slant = slant
            } else {
                break
            }
            words.removeLast()
        }
        spec.family = String(words.joined(separator: " ").drop { $0 == "," }.reversed().drop { $0 == "," }.reversed())
        guard spec.family?.isEmpty == false else { throw TypesetError.invalidFontSpec(text) }
        return spec
    }
}

