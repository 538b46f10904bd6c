import Support
/// A font request in pango-view's form ("Noto Sans Bold 48"), or a path to a font file.
package struct FontSpec: Hashable, Sendable {
    package var family: String?
    package var file: String?
    /// Fontconfig weight (80 regular, 200 bold) and slant (0 roman, 100 italic, 110 oblique).
    package var weight: Int
    package var slant: Int
    package var size: Double?

    package static let defaultFamily = "Noto Sans"
    /// CSS and Fontconfig generic names: Fontconfig picks the closest installed face, whatever its name.
    package static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui"]

    /// The generic monospace (`<tt>`): its chain leads with a fixed-width text face.
    var isGenericMonospace: Bool { ["monospace", "mono"].contains(family?.lowercased() ?? "") }

    package init(family: String? = FontSpec.defaultFamily, file: String? = nil, weight: Int = 80,
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
    package static func parse(_ text: String, fileExists: (String) -> Bool) throws -> FontSpec {
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


/// A font weight as CSS and Pango give it (100 thin ... 400 normal ... 700 bold ... 1000), by
/// number or name.
package struct FontWeight: Hashable, Sendable {
    package private(set) var value: Int

    static let names: [String: Int] = [
        "thin": 100, "ultralight": 200, "extralight": 200, "light": 300, "semilight": 350, "book": 380, "normal": 400,
        "regular": 400, "medium": 500, "semibold": 600, "demibold": 600, "bold": 700, "ultrabold": 800, "extrabold": 800,
        "heavy": 900, "black": 900, "ultraheavy": 1000, "extrablack": 1000,
    ]

    package init(number: Double) throws(ValueError) {
        guard number.isFinite, number == number.rounded(), (1...1000).contains(number) else {
            throw ValueError("weight", Checked.describe(number), expected: "a whole number from 1 to 1000 or a name (normal, bold, ...)")
        }
        value = Int(number)
    }

    package init(_ text: String) throws(ValueError) {
        let key = text.trimmed.lowercased().filter { $0 != "-" && $0 != " " }
        if let named = FontWeight.names[key] { try self.init(number: Double(named)); return }
        guard let number = Double(text.trimmed) else {
            throw ValueError("weight", text, expected: "a whole number from 1 to 1000 or a name (\(FontWeight.names.keys.sorted().joined(separator: ", ")))")
        }
        try self.init(number: number)
    }

    /// Fontconfig's scale (80 regular, 200 bold), as FcWeightFromOpenType maps it.
    package static func fontconfig(_ weight: Int) -> Int {
        let table: [(Int, Int)] = [(100, 0), (200, 40), (300, 50), (350, 55), (380, 75), (400, 80), (500, 100), (600, 180),
                                   (700, 200), (800, 205), (900, 210), (1000, 215)]
        if weight <= 100 { return 0 }
        for (a, b) in zip(table, table.dropFirst()) where weight <= b.0 {
            return a.1 + (b.1 - a.1) * (weight - a.0) / (b.0 - a.0)
        }
        return 215
    }
}

package enum FontSlant: String, CaseIterable, Sendable {
    case normal, italic, oblique
    /// Fontconfig's slant.
    package var fontconfig: Int { switch self { case .normal: 0; case .italic: 100; case .oblique: 110 } }
}
