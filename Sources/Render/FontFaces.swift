import CCairo
import CFreeType
import Typeset

/// Process-wide FreeType library: Cairo faces may outlive any one renderer (Cairo caches them),
/// so the library is never freed.
private nonisolated(unsafe) let freetype: FT_Library? = {
    var library: FT_Library?
    return FT_Init_FreeType(&library) == 0 ? library : nil
}()

/// Cairo font faces over FreeType faces, one per font file and index, however many layouts use
/// it. Cairo does not own an FT_Face: each is released by a destroy callback when Cairo drops
/// its last reference.
final class FontFaces {
    private var faces: [FontFace: OpaquePointer] = [:]
    /// Each font's glyph for U+0020 (0 when it has none).
    private var spaceGlyphs: [FontFace: UInt32] = [:]
    /// The FreeType faces under the Cairo faces (owned by them).
    private var freetypeFaces: [FontFace: FT_Face] = [:]

    init(_ fonts: [FontFace]) throws {
        for font in fonts where faces[font] == nil {
            var face: FT_Face?
            let error = FT_New_Face(freetype, font.file, FT_Long(font.index), &face)
            guard error == 0, let face else {
                throw RenderError.freetype(font.file, code: error)
            }
            // Outlines unhinted (positions come from HarfBuzz); colour bitmaps for emoji.
            let flags = Int32(FT_LOAD_NO_HINTING) | (font.isColor ? Int32(FT_LOAD_COLOR) : 0)
            guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, flags) else {
                FT_Done_Face(face)
                throw RenderError.cairo("cannot create a font face for \(font.file)")
            }
            let status = cairo_font_face_set_user_data(cairoFace, &FontFaces.key, UnsafeMutableRawPointer(face)) { face in
                if let face { FT_Done_Face(face.assumingMemoryBound(to: FT_FaceRec.self)) }
            }
            if status != CAIRO_STATUS_SUCCESS {
                cairo_font_face_destroy(cairoFace)
                FT_Done_Face(face)
                try Cairo.check(status, "font face \(font.file)")
            }
            faces[font] = cairoFace
            freetypeFaces[font] = face
            spaceGlyphs[font] = UInt32(FT_Get_Char_Index(face, 0x20))
        }
    }

    deinit { faces.values.forEach { cairo_font_face_destroy($0) } }

    subscript(font: FontFace) -> OpaquePointer { faces[font]! }

    /// Checks that FreeType can load every glyph the layouts draw: Cairo skips a glyph it cannot
    /// load without a word, so a truncated or damaged font would render blank. Colour bitmap
    /// fonts have no outlines to load unscaled and are left to Cairo.
    func checkGlyphs(of layouts: [Layout]) throws {
        var checked: [FontFace: Set<UInt32>] = [:]
        for layout in layouts {
            for line in layout.lines {
                for run in line.runs {
                    let font = layout.fonts[run.font]
                    guard !font.isColor, let face = freetypeFaces[font] else { continue }
                    for glyph in run.glyphs where checked[font, default: []].insert(glyph.id).inserted {
                        let error = FT_Load_Glyph(face, glyph.id, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING))
                        if error != 0 { throw RenderError.badGlyph(font.file, glyph: glyph.id, code: error) }
                    }
                }
            }
        }
    }

    func spaceGlyph(font: FontFace) -> UInt32 { spaceGlyphs[font] ?? 0 }

    private nonisolated(unsafe) static var key = cairo_user_data_key_t()
}
