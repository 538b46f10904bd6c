import Foundation
import Testing
import TestSupport
@testable import Typeset

/// Fonts given as bytes (no folder): the same faces picked, in the same fallback order, and
/// the same glyphs shaped as from the same files in a folder; none of them opened by name.
@Suite struct FontDataTests {
    private static func fontData() throws -> [FontData] {
        try Fixtures.pinnedFontBytes().map { FontData(name: $0.name, bytes: $0.bytes) }
    }

    @Test func bytesPickTheFacesTheirFilesPick() throws {
        let fromBytes = try FontLibrary(directories: [], includeSystemFonts: false, fontData: try Self.fontData())
        let fromFolder = Fixtures.library
        for request in ["Noto Sans", "Noto Sans Bold", "Inter Bold", "Inter:weight=650", "Noto Sans Arabic", "Noto Sans CJK JP Bold",
                        "monospace", "Noto Sans Mono Bold", "Noto Color Emoji", "Noto Sans Devanagari"] {
            let spec = try FontSpec.parse(pattern: request)
            let (a, b) = (try fromBytes.match(spec), try fromFolder.match(spec))
            #expect(a.family == b.family && a.style == b.style && a.variations == b.variations && a.index == b.index, "\(request)")
            // The face's "file" is a key naming the font, never a path.
            let file = a.file.split(separator: "/").last.map(String.init) ?? ""
            #expect(a.file.hasPrefix("bytes:") && file.hasSuffix(b.file.split(separator: "/").last.map(String.init) ?? "?"), "\(a.file)")
        }
    }

    @Test func bytesShapeAndFallBackAsTheirFilesDo() throws {
        let fromBytes = try FontLibrary(directories: [], includeSystemFonts: false, fontData: try Self.fontData())
        let text = "Hello مرحبا 日本語 नमस्ते 👋🏽 fin"
        let spec = try FontSpec.parse(pattern: "Noto Sans")
        let a = try Typesetter(library: fromBytes, font: spec).layout(text, style: TypesetStyle(size: 40, width: 300))
        let b = try Typesetter(library: Fixtures.library, font: spec).layout(text, style: TypesetStyle(size: 40, width: 300))
        #expect(a.lines.count == b.lines.count && a.lines.count > 1)
        #expect(a.lines.map(\.width) == b.lines.map(\.width))
        #expect(a.fonts.map(\.family) == b.fonts.map(\.family))
        #expect(a.fonts.count >= 5)
    }

    @Test func bytesThatAreNoFontAreRefusedByName() throws {
        #expect(throws: TypesetError.notAFont("brand.ttf")) {
            try FontLibrary(directories: [], includeSystemFonts: false, fontData: [FontData(name: "brand.ttf", bytes: Array("not a font".utf8))])
        }
    }
}
