import Support
import TestSupport
import Testing
@testable import Typeset

/// Fault 7: what a request names (a language, a font family) must not be kept for ever, one
/// entry per distinct value.
@Suite struct InterningTests {
    @Test func malformedLanguagesAreRefusedWithOneLine() throws {
        for tag in ["en", "zh-Hant-HK", "de_CH", "x-private-use1", ""] {
            #expect(LanguageTags.isWellFormed(tag), "\(tag)")
        }
        let hostile = String(repeating: "a", count: 250_000)
        for tag in [hostile, "en us", "ja-", "-ja", "thisistoolong", "ru\u{0}", "日本"] {
            #expect(!LanguageTags.isWellFormed(tag), "\(tag.prefix(20))")
        }
        let error = #expect(throws: TypesetError.self) { try TypesetStyle(language: hostile).validated() }
        #expect(error.map { "\($0)" }?.count ?? .max < 200, "the message quotes the start of the tag only")
    }

    /// Before, each distinct tag was interned by HarfBuzz for the life of the process.
    @Test func harfBuzzLanguagesAreBounded() throws {
        for i in 0..<3000 { _ = LanguageTags.harfBuzz("en-x-\(String(i, radix: 36))") }
        #expect(LanguageTags.internedCount <= LanguageTags.limit + 26 * 26 + 26 * 26 * 26)
        #expect(LanguageTags.internedCount <= LanguageTags.limit + 1, "every extra tag fell back to 'en'")
        // A layout with a late tag still shapes (with its primary language).
        let library = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false)
        let layout = try Typesetter(library: library, font: FontSpec()).layout("office", style: TypesetStyle(size: 20, language: "en-x-late"))
        #expect(layout.lines.count == 1)
    }

    /// Every spelling of a family name is its own chain: the cache is bounded, and the font
    /// lists Fontconfig sorted for them are freed (one charset per face is kept).
    @Test func fontChainsAreBounded() throws {
        let library = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false)
        for i in 0..<600 {
            let spelling = String("noto sans".enumerated().map { j, c in (i >> j) & 1 == 1 ? Character(c.uppercased()) : c })
            _ = try library.chain(for: FontSpec(family: spelling, weight: 80 + 20 * (i / 512)))
        }
        _ = try? library.chain(for: FontSpec(family: "No Such Family"))
        let held = library.heldCounts
        #expect(held.chains <= FontLibrary.chainLimit)
        #expect(held.charsets <= 20, "one per face in fonts/, got \(held.charsets)")
    }
}
