import Support
/// A font request in pango-view's form ("Noto Sans Bold 48"), or a path to a font file.
package struct FontSpec: Hashable, Sendable {
    package var family: String?
    package var file: String?
    /// Fontconfig weight (80 regular, 200 bold) and slant (0 roman, 100 italic, 110 oblique).
    package var weight: Int
    package var slant: Int
    /// Fontconfig width, the percentage of the normal width (100; 75 condensed, 125 expanded):
    /// a `wdth` axis is set from it, static faces are matched by it.
    package var width = 100
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
    /// Not "roman", which Pango takes too: it is the default slant, and it ends "Times New Roman".
    private static let slants: [String: Int] = ["italic": 100, "oblique": 110]

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
            } else if let width = FontWidth.names[word] {
                spec.width = width
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


extension FontSpec {
    /// Parses a request in Fontconfig's pattern form with CSS numbers, as `fonts --match` takes
    /// it: `"Inter:weight=700:italic"`, `"Noto Sans:bold:width=75"`; the part before the first
    /// colon may be a Pango description ("Inter Bold").
    package static func parse(pattern: String) throws -> FontSpec {
        var parts = pattern.split(separator: ":", omittingEmptySubsequences: false).map { String($0).trimmed }
        var spec = try parse(parts.removeFirst(), fileExists: { _ in false })
        for part in parts where !part.isEmpty {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0).trimmed.lowercased() }
            let (key, value) = pair.count == 2 ? (pair[0], pair[1]) : ("", pair[0])
            switch key {
            case "weight": spec.weight = FontWeight.fontconfig(try FontWeight(value).value)
            case "slant", "style": spec.slant = try slant(value, in: pattern)
            case "width", "stretch": spec.width = try FontWidth(value).value
            case "":
                if let weight = try? FontWeight(value) { spec.weight = FontWeight.fontconfig(weight.value) }
                else if let width = try? FontWidth(value) { spec.width = width.value }
                else { spec.slant = try slant(value, in: pattern) }
            default: throw TypesetError.invalidFontSpec(pattern)
            }
        }
        return spec
    }

    private static func slant(_ value: String, in pattern: String) throws -> Int {
        guard let slant = FontSlant(rawValue: value == "roman" ? "normal" : value) else { throw TypesetError.invalidFontSpec(pattern) }
        return slant.fontconfig
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

/// A font width (stretch) as CSS and Pango name it, or a percentage of the normal width.
package struct FontWidth: Hashable, Sendable {
    /// Fontconfig's width: the percentage (50 to 200).
    package private(set) var value: Int

    static let names: [String: Int] = [
        "ultracondensed": 50, "extracondensed": 63, "condensed": 75, "semicondensed": 87, "normal": 100,
        "semiexpanded": 113, "expanded": 125, "extraexpanded": 150, "ultraexpanded": 200,
    ]

    package init(_ text: String) throws(ValueError) {
        let trimmed = text.trimmed.lowercased()
        if let named = FontWidth.names[trimmed.filter { $0 != "-" && $0 != " " && $0 != "_" }] { value = named; return }
        let digits = trimmed.hasSuffix("%") ? String(trimmed.dropLast()) : trimmed
        guard let number = Double(digits), number.isFinite, number == number.rounded(), (50...200).contains(number) else {
            throw ValueError("stretch", text, expected: "a percentage from 50 to 200 or a name (\(FontWidth.names.sorted { $0.value < $1.value }.map(\.key).joined(separator: ", ")))")
        }
        value = Int(number)
    }
}

package enum FontSlant: String, CaseIterable, Sendable {
    case normal, italic, oblique
    /// Fontconfig's slant.
    package var fontconfig: Int { switch self { case .normal: 0; case .italic: 100; case .oblique: 110 } }
}
