import Testing
import TestSupport
@testable import Typeset

/// The face a request picks (issue 49): weights and widths from every kind of face, named
/// instances of variable fonts, synthetic bold where no face is heavy enough, and the notes.
@Suite struct FontSelectionTests {
    private func pinned(_ strict: Bool = false) throws -> FontLibrary {
        try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false, strictFamilies: strict)
    }

    private func spec(_ text: String) throws -> FontSpec { try FontSpec.parse(pattern: text) }

    @Test func aVariableFamilyByWeightSetsItsAxis() throws {
        let library = try pinned()
        for (request, wght, instance) in [("Inter Bold", "wght=700", "Bold"), ("Inter:weight=700", "wght=700", "Bold"),
                                          ("Inter Thin", "wght=100", "Thin"), ("Inter:weight=650", "wght=650", "")] {
            let face = try library.match(try spec(request))
            #expect(face.family == "Inter", "\(request)")
            #expect(face.variations == wght, "\(request)")
            #expect(face.instance == instance, "\(request)")
            #expect(!face.emboldened, "\(request)")
        }
        // The default weight is the font's default instance: no axis values at all.
        #expect(try library.match(try spec("Inter")).variations.isEmpty)
    }

    @Test func aBoldRequestShapesWiderInInterAndTheDumpSaysWhy() throws {
        let library = try pinned()
        let regular = try Typesetter(library: library, font: try spec("Inter")).layout("Hello", style: TypesetStyle(size: 40))
        let bold = try Typesetter(library: library, font: try spec("Inter:weight=700")).layout("Hello", style: TypesetStyle(size: 40))
        #expect(bold.lines[0].width > regular.lines[0].width)
        #expect(bold.fonts.map(\.variations) == ["wght=700"])
        // The same as asking for the axis by hand.
        var style = TypesetStyle(size: 40)
        style.variations = try FontVariations("wght=700")
        let byHand = try Typesetter(library: library, font: try spec("Inter")).layout("Hello", style: style)
        #expect(byHand.lines[0].width == bold.lines[0].width)
    }

    @Test func cjkBoldTakesTheBoldFaceAndEmboldensWhatItLacks() throws {
        let library = try pinned()
        // 日本 are in the pinned bold subset; 漢 is only in the regular one.
        let layout = try Typesetter(library: library, font: try spec("Noto Sans CJK JP Bold")).layout("日本漢", style: TypesetStyle(size: 40))
        let faces = layout.lines[0].runs.map { layout.fonts[$0.font] }
        #expect(faces.map(\.file.lastPathComponent) == ["NotoSansCJKjp-Bold-subset.otf", "NotoSansCJKjp-Regular-subset.otf"])
        #expect(faces.map(\.emboldened) == [false, true])
        #expect(library.notices.all == ["'Noto Sans CJK JP' has no face as bold as asked: drawn with synthetic bold"])
        // Synthetic bold widens each glyph by a 24th of the size, as FreeType's emboldening does.
        let plain = try Typesetter(library: library, font: try spec("Noto Sans CJK JP")).layout("漢", style: TypesetStyle(size: 48))
        let heavy = try Typesetter(library: library, font: try spec("Noto Sans CJK JP:bold")).layout("漢", style: TypesetStyle(size: 48))
        #expect(abs(heavy.lines[0].width - plain.lines[0].width - 2) < 1e-9)
    }

    @Test func noFaceOfTheStyleIsSynthesisedAndSaidOnce() throws {
        let library = try pinned()
        let layout = try Typesetter(library: library, font: try spec("Noto Sans:italic")).layout("Hi", style: TypesetStyle(size: 40))
        #expect(layout.lines[0].runs.allSatisfy { $0.metrics.oblique })
        _ = try Typesetter(library: library, font: try spec("Noto Sans:italic")).layout("Hi again", style: TypesetStyle(size: 40))
        #expect(library.notices.all == ["'Noto Sans' has no italic face: drawn with synthetic oblique"])
        // A real bold face is never emboldened; a colour font never is.
        #expect(try !library.match(try spec("Noto Sans:bold")).emboldened)
        #expect(try !library.match(try spec("Noto Color Emoji:bold")).emboldened)
    }

    @Test func theWeightNearestInFontconfigsScaleWins() throws {
        let library = try pinned()
        // Noto Sans has 400 and 700 pinned: Fontconfig's distance (80 regular, 200 bold).
        #expect(try library.match(try spec("Noto Sans:weight=500")).file.hasSuffix("NotoSans-Regular.ttf"))
        #expect(try library.match(try spec("Noto Sans:weight=600")).file.hasSuffix("NotoSans-Bold.ttf"))
        // Medium asked of a regular face is not bold enough to embolden; 700 and up is.
        #expect(try !library.match(try spec("Noto Sans Devanagari:weight=500")).emboldened)
        #expect(try library.match(try spec("Noto Sans CJK JP:weight=800")).file.hasSuffix("Bold-subset.otf"))
    }

    @Test func pinnedOnlyRefusesAFamilyItLacksAndNeverSuggestsTheNameTyped() throws {
        let library = try pinned()
        #expect(throws: TypesetError.unknownFont("Helvetica", suggestions: [])) { _ = try library.match(try spec("Helvetica")) }
        do {
            _ = try library.match(try spec("noto sans cjk"))
            Issue.record("a family that is not installed was matched")
        } catch let TypesetError.unknownFont(name, suggestions) {
            #expect(!suggestions.contains { $0.lowercased() == name.lowercased() })
        }
        // Any case of an installed name is that family.
        #expect(try library.match(try spec("inter")).family == "Inter")
    }

    @Test func patternsParseAsFcMatchAndPangoWriteThem() throws {
        #expect(try spec("Inter:weight=700:italic") == FontSpec(family: "Inter", weight: 200, slant: 100))
        var condensed = FontSpec(family: "DejaVu Sans", weight: 200)
        condensed.width = 75
        #expect(try spec("DejaVu Sans:bold:condensed") == condensed)
        #expect(try spec("DejaVu Sans Bold Condensed") == condensed)
        #expect(throws: (any Error).self) { try spec("Inter:weight=heavyish") }
        #expect(throws: (any Error).self) { try spec("Inter:colour=red") }
    }

    @Test func runsInTheDumpCarryLevelsInVisualOrder() throws {
        let library = try pinned()
        let layout = try Typesetter(library: library, font: FontSpec()).layout("abc مرحبا def", style: TypesetStyle(size: 40))
        let runs = layout.lines[0].runs
        // The space after the Arabic word is at the paragraph's level (UAX #9 N1), in the
        // Arabic font it follows.
        #expect(runs.map(\.level) == [0, 1, 0, 0])
        #expect(runs.map(\.start) == [0, 4, 14, 15])
    }
}

extension String {
    fileprivate var lastPathComponent: String { String(split(separator: "/").last ?? "") }
}
