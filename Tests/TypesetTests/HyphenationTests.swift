import TestSupport
import Testing
import Typeset

/// Dictionary hyphenation (libhyphen with Debian's dictionaries): the points used are ones the
/// dictionary allows, in English, German, Russian and French; a hyphen is drawn and marked.
@Suite struct HyphenationTests {
    func lines(_ text: String, lang: String, width: Double) throws -> [Line] {
        var style = TypesetStyle(size: 40, width: width, language: lang)
        style.hyphenate = true
        return try Typesetter(library: Fixtures.library, font: FontSpec()).layout(text, style: style).lines
    }

    @Test(arguments: [
        ("en-US", "Hyphenation makes typography considerably more beautiful", 330.0, ["hy-phen-ation", "con-sid-er-ably", "ty-pog-ra-phy", "beau-ti-ful"]),
        ("de", "Silbentrennung verbessert den Blocksatz außerordentlich", 300.0, ["Sil-ben-tren-nung", "ver-bes-sert", "Block-satz", "au-ßer-or-dent-lich"]),
        ("ru", "Достопримечательности городского управления", 300.0, ["До-сто-при-ме-ча-тель-но-сти", "го-род-ско-го", "управ-ле-ния"]),
        // A UTF-8 dictionary with letters of two bytes: points fell one letter early
        // ("dévelo-ppe") when libhyphen's per-character values were read per byte.
        ("fr", "Le développement éléphantesque", 300.0, ["dé-ve-lop-pe-ment", "élé-phan-tesque"]),
    ])
    func breaksFallOnDictionaryPoints(lang: String, text: String, width: Double, allowed: [String]) throws {
        try #require(Hyphenation().available(lang), "the \(lang) dictionary is installed by the set-up")
        let result = try lines(text, lang: lang, width: width)
        let hyphenated = result.filter(\.hyphen)
        #expect(!hyphenated.isEmpty, "\(result.map(\.text))")
        // Every hyphenated line ends at a point one of the allowed hyphenations lists.
        let prefixes = Set(allowed.flatMap { word in
            word.split(separator: "-").indices.dropLast().map { i in word.split(separator: "-")[...i].joined() }
        })
        for line in hyphenated {
            let lastWord = String(line.text.split(separator: " ").last ?? "")
            #expect(prefixes.contains(lastWord), "'\(lastWord)' is not a dictionary prefix (\(result.map(\.text)))")
        }
    }
}
