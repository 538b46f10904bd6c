import CCairo
import CFreeType
import Typeset
import Support

/// Cairo font faces over FreeType faces, made once per font file and index and kept for the
/// process (Cairo caches scaled fonts on them, and any thread may draw with them: Cairo locks a
/// face while it uses it). FreeType's library object is not thread-safe for opening and closing
/// faces, so every FreeType call here happens under one lock. Cairo does not own an FT_Face:
/// each is released by a destroy callback when Cairo drops its last reference (never, here).
final class FontContext: @unchecked Sendable {
    static let shared = FontContext()

    private struct Entry {
        var cairoFace: OpaquePointer
        var spaceGlyph: UInt32
        /// A second FreeType face, used only under the lock, to check glyphs load (Cairo's own
        /// face may be in use by another thread at the same moment).
        var checkFace: FT_Face
        var checked: Set<UInt32>
    }

    private let lock = Lock()
    private nonisolated(unsafe) var library: FT_Library?
    private nonisolated(unsafe) var entries: [FontFace: Entry] = [:]

    private init() {
        var library: FT_Library?
        self.library = FT_Init_FreeType(&library) == 0 ? library : nil
    }

    private nonisolated(unsafe) static var key = cairo_user_data_key_t()

    /// Runs `body` with the FreeType library under the lock.
    func withLibrary<T>(_ body: (FT_Library?) -> T) -> T {
        lock.withLock { body(library) }
    }

    private func openFace(_ font: FontFace) throws -> FT_Face {
        var face: FT_Face?
        let error = FT_New_Face(library, font.file, FT_Long(font.index), &face)
        guard error == 0, let face else { throw RenderError.freetype(font.file, code: error) }
        return face
    }

    private func entry(_ font: FontFace) throws -> Entry {
        if let entry = entries[font] { return entry }
        let face = try openFace(font)
        // Outlines unhinted (positions come from HarfBuzz); colour bitmaps for emoji.
        let flags = Int32(FT_LOAD_NO_HINTING) | (font.isColor ? Int32(FT_LOAD_COLOR) : 0)
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, flags) else {
            FT_Done_Face(face)
            throw RenderError.cairo("cannot create a font face for \(font.file)")
        }
        let status = cairo_font_face_set_user_data(cairoFace, &FontContext.key, UnsafeMutableRawPointer(face)) { face in
            if let face { FT_Done_Face(face.assumingMemoryBound(to: FT_FaceRec.self)) }
        }
        if status != CAIRO_STATUS_SUCCESS {
            cairo_font_face_destroy(cairoFace)
            FT_Done_Face(face)
            try Cairo.check(status, "font face \(font.file)")
        }
        let checkFace: FT_Face
        do {
            checkFace = try openFace(font)
        } catch {
            cairo_font_face_destroy(cairoFace)
            throw error
        }
        let entry = Entry(cairoFace: cairoFace, spaceGlyph: UInt32(FT_Get_Char_Index(face, 0x20)), checkFace: checkFace, checked: [])
        entries[font] = entry
        return entry
    }

    /// The faces of `fonts`, opened on first use.
    func faces(_ fonts: [FontFace]) throws -> FontFaces {
        try lock.withLock {
            var faces: [FontFace: (OpaquePointer, UInt32)] = [:]
            for font in fonts where faces[font] == nil {
                let entry = try entry(font)
                faces[font] = (entry.cairoFace, entry.spaceGlyph)
            }
            return FontFaces(faces: faces)
        }
    }

    /// Checks that FreeType can load every glyph the layouts draw: Cairo skips a glyph it cannot
    /// load without a word, so a damaged font would render blank. Each glyph is checked once per
    /// process. Colour bitmap fonts have no outlines to load unscaled and are left to Cairo.
    func checkGlyphs(of layouts: [Layout]) throws {
        try lock.withLock {
            for layout in layouts {
                for line in layout.lines {
                    for run in line.runs {
                        let font = layout.fonts[run.font]
                        guard !font.isColor else { continue }
                        let face = try entry(font).checkFace
                        // Inserted in place: the set of checked glyphs is not copied per run.
                        for glyph in run.glyphs where entries[font]!.checked.insert(glyph.id).inserted {
                            let error = FT_Load_Glyph(face, glyph.id, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING))
                            if error != 0 { throw RenderError.badGlyph(font.file, glyph: glyph.id, code: error) }
                        }
                    }
                }
            }
        }
    }
}

/// The faces one render uses, looked up once from the shared context.
struct FontFaces {
    fileprivate let faces: [FontFace: (OpaquePointer, UInt32)]

    init(_ fonts: [FontFace]) throws {
        self = try FontContext.shared.faces(fonts)
    }

    fileprivate init(faces: [FontFace: (OpaquePointer, UInt32)]) { self.faces = faces }

    /// The faces a scene's text uses, each opened once and its glyphs checked.
    init(for scene: Scene) throws {
        let layouts = scene.layouts
        try self.init(layouts.flatMap(\.fonts))
        try checkGlyphs(of: layouts)
    }

    subscript(font: FontFace) -> OpaquePointer { faces[font]!.0 }

    /// The font's glyph for U+0020 (0 when it has none).
    func spaceGlyph(font: FontFace) -> UInt32 { faces[font]?.1 ?? 0 }

    func checkGlyphs(of layouts: [Layout]) throws { try FontContext.shared.checkGlyphs(of: layouts) }
}
