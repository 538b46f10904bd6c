import Foundation
import TestSupport
import Testing
@testable import Typeset

/// The system's fonts are loaded only when the pinned fonts do not cover a text (or lack the
/// family asked for), and the layout is the same as with them loaded from the start.
@Suite struct SystemFontsTests {
    private func library() throws -> FontLibrary { try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: true) }

    @Test func textThePinnedFontsCoverNeverLoadsTheSystemFonts() throws {
        let lazy = try library()
        let text = "Hello, Мир! こんにちは مرحبا नमस्ते 👩‍💻"
        let layout = try Typesetter(library: lazy, font: FontSpec()).layout(text, style: TypesetStyle(size: 40, width: 500))
        #expect(!lazy.systemFontsLoaded)
        // The same lines and fonts as a library whose system fonts were loaded first.
        let eager = try library()
        _ = try Typesetter(library: eager, font: FontSpec()).layout("\u{1200}", style: TypesetStyle(size: 40))
        #expect(eager.systemFontsLoaded)
        let again = try Typesetter(library: eager, font: FontSpec()).layout(text, style: TypesetStyle(size: 40, width: 500))
        #expect(layout.lines.map(\.text) == again.lines.map(\.text))
        #expect(layout.lines.map(\.width) == again.lines.map(\.width))
        #expect(layout.fonts == again.fonts)
    }

    @Test func anUncoveredCharacterOrAnUnpinnedFamilyLoadsThem() throws {
        // Ethiopic: no pinned font has it.
        let uncovered = try library()
        _ = try Typesetter(library: uncovered, font: FontSpec()).layout("abc \u{1200}", style: TypesetStyle(size: 40))
        #expect(uncovered.systemFontsLoaded)
        // A family the pinned folder lacks: the system's list decides whether it exists, and
        // Fontconfig's rules what stands in for it (said once), unless the library is strict.
        let family = try library()
        let substituted = try Typesetter(library: family, font: FontSpec(family: "No Such Family 123")).layout("abc", style: TypesetStyle(size: 40))
        #expect(family.systemFontsLoaded)
        #expect(!substituted.fonts.isEmpty)
        #expect(family.notices.all.contains { $0.contains("'No Such Family 123' is not installed") && $0.contains(substituted.fonts[0].family) })
        let strict = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: true, strictFamilies: true)
        #expect(throws: TypesetError.unknownFont("No Such Family 123", suggestions: [])) {
            _ = try Typesetter(library: strict, font: FontSpec(family: "No Such Family 123")).layout("abc", style: TypesetStyle(size: 40))
        }
        // Without system fonts nothing is ever loaded.
        let pinned = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false)
        _ = try Typesetter(library: pinned, font: FontSpec()).layout("abc \u{1200}", style: TypesetStyle(size: 40))
        #expect(!pinned.systemFontsLoaded)
    }
}
