import CCairo
import CFreeType
import Glibc
import Typeset
import Support

/// FreeType's library object and the one lock every FreeType call takes (opening and closing
/// faces on one library is not thread-safe). Shared by a context and by every face it made, so
/// a face Cairo still holds after its context is gone is freed under the same lock. The lock
/// is recursive: Cairo may drop a face, and so call its destroy callback, from inside a locked
/// section.
final class FreeTypeLibrary: @unchecked Sendable {
    let handle: FT_Library
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() throws {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else { throw RenderError.freetype("the FreeType library", code: error) }
        handle = library
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    func withLock<T>(_ body: (FT_Library) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(handle)
    }

    deinit {
        FT_Done_FreeType(handle)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
}

/// What a Cairo face's destroy callback frees: its FreeType face, under its library's lock,
/// and then the stream and the file's bytes the face read.
private final class FaceOwner {
    let face: FT_Face
    let freetype: FreeTypeLibrary
    let blob: FontBlob
    let stream: TextMappedStream?
    init(face: FT_Face, freetype: FreeTypeLibrary, blob: FontBlob, stream: TextMappedStream?) {
        (self.face, self.freetype, self.blob, self.stream) = (face, freetype, blob, stream)
    }
}

/// The fonts a run draws with, made by the caller (a CLI run, a batch, the service, a test)
/// and passed down: the font library (Fontconfig, HarfBuzz) and Cairo faces over FreeType faces
/// read from the same mapped bytes as HarfBuzz's (one blob per file), made on first use and
/// kept for at most `faceLimit` fonts (the oldest is let go first; Cairo frees it when the
/// last render using it is done). Safe to use from several threads: every FreeType call is
/// under the library's lock.
package final class FontContext: @unchecked Sendable {
    package let library: FontLibrary
    private let freetype: FreeTypeLibrary

    private struct Entry {
        var cairoFace: OpaquePointer
        var spaceGlyph: UInt32
        /// A glyph that draws nothing: the space, else U+3000 or U+00A0 (0: none).
        var blankGlyph: UInt32
        /// A second FreeType face, used only under the lock, to check glyphs load (Cairo's own
        /// face may be in use by another thread at the same moment, and Cairo cannot lend it
        /// safely: cairo_ft_scaled_font_lock_face returns with Cairo's mutex released).
        var checkFace: FT_Face
        var checked: GlyphBits
        /// The bytes `checkFace` reads.
        var blob: FontBlob
    }

    /// A font's faces for images, and for PDFs (`textMapped`: see `TextMappedStream`; an image
    /// keeps FreeType's direct reads of the mapped bytes, which a stream would copy).
    private struct EntryKey: Hashable {
        var font: FontFace
        var textMapped: Bool
    }

    private nonisolated(unsafe) var entries: BoundedCache<EntryKey, Entry>
    /// `BlankFont`'s Cairo face, made on first use (under the lock).
    private nonisolated(unsafe) var blank: OpaquePointer?
    private nonisolated(unsafe) static var key = cairo_user_data_key_t()

    /// The context's own helper thread, in a one-shot process (`prefetchFaces`): faces are
    /// opened and glyphs warmed on it (`GlyphWarmup`); closed with the context.
    let helper: HelperThread?

    /// `prefetchFaces`: the process renders one image and exits (see `RenderOptions.oneShot`),
    /// so faces are opened on the other core while the text is laid out, on a helper thread
    /// the context owns.
    package init(library: FontLibrary, faceLimit: Int = 64, prefetchFaces: Bool = false) throws {
        self.library = library
        entries = BoundedCache(limit: faceLimit)
        freetype = try FreeTypeLibrary()
        helper = prefetchFaces ? HelperThread() : nil
        // A one-shot render opens each font's faces on the helper thread as soon as its text is
        // itemized with the font, while the layout goes on: FreeType parses the 40,000-glyph
        // CJK face in 0.35-0.5 ms, twice (see `Entry`), which the draw then waited for.
        if let helper {
            library.observeNewFaces { [weak self] font in
                guard let context = self else { return }
                helper.submit { context.prefetch(font) }
            }
        }
    }

    /// Opens `font`'s faces ahead of the draw; a failure is left for the draw to report.
    private func prefetch(_ font: FontFace) {
        freetype.withLock { library in _ = try? entry(font, textMapped: false, library) }
    }

    deinit {
        helper?.close()
        freetype.withLock { _ in
            entries.all.forEach(FontContext.release)
            if let blank { cairo_font_face_destroy(blank) }
        }
    }

    /// Drops the context's hold on an entry's faces; called under the lock.
    private static func release(_ entry: Entry) {
        cairo_font_face_destroy(entry.cairoFace)
        FT_Done_Face(entry.checkFace)
    }

    private func openFace(_ blob: FontBlob, index: Int, _ library: FT_Library) throws -> FT_Face {
        var face: FT_Face?
        let base = blob.bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self)
        let error = FT_New_Memory_Face(library, base, FT_Long(blob.bytes.count), FT_Long(index), &face)
        guard error == 0, let face else { throw RenderError.freetype(blob.file, code: error) }
        return face
    }

    /// The entry of `font`, made on first use; called under the lock.
    private func entry(_ font: FontFace, textMapped: Bool, _ library: FT_Library) throws -> Entry {
        let key = EntryKey(font: font, textMapped: textMapped)
        if let entry = entries[key] { return entry }
        let blob = try self.library.blob(of: font)
        // A PDF's Cairo face reads the bytes with the cmap hidden (see `TextMappedStream`); a
        // colour font's glyphs are pictures with their own text layer, read as they are.
        let stream = font.isColor || !textMapped ? nil : TextMappedStream(blob: blob, index: font.index)
        let face: FT_Face
        if let stream {
            let (opened, error) = stream.openFace(library, index: font.index)
            guard error == 0, let opened else { throw RenderError.freetype(blob.file, code: error) }
            face = opened
            // FreeType builds a Unicode map from the glyph names when a font has no cmap (the
            // "fi" glyph is U+FB01 again): none is selected, so Cairo finds no character there either.
            opened.pointee.charmap = nil
        } else {
            face = try openFace(blob, index: font.index, library)
        }
        // Outlines unhinted (positions come from HarfBuzz); colour bitmaps for emoji.
        let flags = Int32(FT_LOAD_NO_HINTING) | (font.isColor ? Int32(FT_LOAD_COLOR) : 0)
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, flags) else {
            FT_Done_Face(face)
            throw RenderError.cairo("cannot create a font face for \(font.file)")
        }
        // A synthetic bold face has an FT_Face of its own (the flag is the Cairo face's, and
        // Cairo shares one face per FT_Face): Cairo emboldens as FreeType's FT_GlyphSlot_Embolden.
        if font.emboldened { cairo_ft_font_face_set_synthesize(cairoFace, CAIRO_FT_SYNTHESIZE_BOLD.rawValue) }
        try keep(face, blob: blob, stream: stream, until: cairoFace, name: font.file)
        let checkFace: FT_Face
        do {
            checkFace = try openFace(blob, index: font.index, library)
        } catch {
            cairo_font_face_destroy(cairoFace)
            throw error
        }
        // A blank glyph for invisible text: the space, else the ideographic space (a CJK subset
        // may have only that), else the no-break space.
        let blank: UInt32 = [0x20, 0x3000, 0xA0].lazy.map { UInt32(FT_Get_Char_Index(checkFace, FT_ULong($0))) }.first { $0 != 0 } ?? 0
        let entry = Entry(cairoFace: cairoFace, spaceGlyph: UInt32(FT_Get_Char_Index(checkFace, 0x20)), blankGlyph: blank,
                          checkFace: checkFace, checked: GlyphBits(), blob: blob)
        // Renders in flight hold their own references: an evicted face lives until they finish.
        entries.insert(entry, for: key).forEach(FontContext.release)
        return entry
    }

    /// The faces of `fonts` (for a PDF: `textMapped`, with the blank font), opened on first use,
    /// each referenced until the faces are dropped.
    func faces(_ fonts: [FontFace], textMapped: Bool) throws -> FontFaces {
        try freetype.withLock { library in
            var faces: [FontFace: (OpaquePointer, UInt32, UInt32)] = [:]
            for font in fonts where faces[font] == nil {
                let entry = try entry(font, textMapped: textMapped, library)
                faces[font] = (cairo_font_face_reference(entry.cairoFace), entry.spaceGlyph, entry.blankGlyph)
            }
            return FontFaces(faces: faces, blank: textMapped ? cairo_font_face_reference(try blankFace(library)) : nil)
        }
    }

    /// `BlankFont`'s face, made once; called under the lock.
    private func blankFace(_ library: FT_Library) throws -> OpaquePointer {
        if let blank { return blank }
        let blob = try FontBlob(bytes: BlankFont.bytes, name: BlankFont.name)
        let face = try openFace(blob, index: 0, library)
        guard let cairoFace = cairo_ft_font_face_create_for_ft_face(face, Int32(FT_LOAD_NO_HINTING)) else {
            FT_Done_Face(face)
            throw RenderError.cairo("cannot create a font face for the invisible text layer")
        }
        try keep(face, blob: blob, stream: nil, until: cairoFace, name: BlankFont.name)
        blank = cairoFace
        return cairoFace
    }

    /// Frees `face` (and the bytes it reads) when Cairo lets `cairoFace` go; on failure both are
    /// released and the error thrown.
    private func keep(_ face: FT_Face, blob: FontBlob, stream: TextMappedStream?, until cairoFace: OpaquePointer, name: String) throws {
        let owner = Unmanaged.passRetained(FaceOwner(face: face, freetype: freetype, blob: blob, stream: stream)).toOpaque()
        let status = cairo_font_face_set_user_data(cairoFace, &FontContext.key, owner) { owner in
            guard let owner else { return }
            let released = Unmanaged<FaceOwner>.fromOpaque(owner).takeRetainedValue()
            released.freetype.withLock { _ in _ = FT_Done_Face(released.face) }
        }
        if status != CAIRO_STATUS_SUCCESS {
            Unmanaged<FaceOwner>.fromOpaque(owner).release()
            cairo_font_face_destroy(cairoFace)
            FT_Done_Face(face)
            try Cairo.check(status, "font face \(name)")
        }
    }

    /// Checks that FreeType can load every glyph the layouts draw: Cairo skips a glyph it cannot
    /// load without a word, so a damaged font would render blank. Each glyph is checked once
    /// while its font is kept. Colour bitmap fonts have no outlines to load unscaled and are
    /// left to Cairo.
    func checkGlyphs(of layouts: [Layout], textMapped: Bool) throws {
        try freetype.withLock { library in
            for layout in layouts {
                // One cache lookup per font, then a bit per glyph: a lookup per glyph hashed the
                // font's file path a million times a book, a set per page hashed every glyph.
                var known = layout.fonts.map { entries[EntryKey(font: $0, textMapped: textMapped)]?.checked ?? GlyphBits() }
                var fresh = [[UInt32]](repeating: [], count: layout.fonts.count)
                for line in layout.lines {
                    for run in line.runs where !layout.fonts[run.font].isColor {
                        for glyph in run.glyphs where known[run.font].insert(glyph.id) { fresh[run.font].append(glyph.id) }
                    }
                }
                for (index, ids) in fresh.enumerated() where !ids.isEmpty {
                    let font = layout.fonts[index]
                    let face = try entry(font, textMapped: textMapped, library).checkFace
                    for id in ids {
                        let error = FT_Load_Glyph(face, id, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING))
                        if error != 0 { throw RenderError.badGlyph(font.file, glyph: id, code: error) }
                    }
                    // Remembered only once loaded: a glyph that failed is checked again next time.
                    entries.update(EntryKey(font: font, textMapped: textMapped)) { $0.checked = known[index] }
                }
            }
        }
    }
}

/// The faces one render uses, looked up once from its context and referenced until the
/// render is done. Read-only once made (Cairo counts its references atomically), so a
/// `GlyphWarmup` thread may draw with it.
final class FontFaces: @unchecked Sendable {
    private let faces: [FontFace: (OpaquePointer, UInt32, UInt32)]
    /// A PDF's: `BlankFont`'s face, for the invisible text layer.
    let blank: OpaquePointer?

    fileprivate init(faces: [FontFace: (OpaquePointer, UInt32, UInt32)], blank: OpaquePointer?) {
        self.faces = faces
        self.blank = blank
    }

    /// The faces a scene's text uses, each opened once and its glyphs checked; `textMapped`
    /// for a PDF (its text layer's mapping comes from our clusters, see `TextMappedStream`).
    static func of(_ scene: Scene, in context: FontContext, textMapped: Bool) throws -> FontFaces {
        let layouts = scene.layouts
        let faces = try context.faces(layouts.flatMap(\.fonts), textMapped: textMapped)
        try context.checkGlyphs(of: layouts, textMapped: textMapped)
        return faces
    }

    deinit {
        for (face, _, _) in faces.values { cairo_font_face_destroy(face) }
        if let blank { cairo_font_face_destroy(blank) }
    }

    subscript(font: FontFace) -> OpaquePointer { faces[font]!.0 }

    /// The font's glyph for U+0020 (0 when it has none).
    func spaceGlyph(font: FontFace) -> UInt32 { faces[font]?.1 ?? 0 }

    /// A glyph of the font that draws nothing (see `Entry.blankGlyph`; 0 when it has none).
    func blankGlyph(font: FontFace) -> UInt32 { faces[font]?.2 ?? 0 }
}

/// A set of glyph ids as bits (a font has at most 65,536 glyphs: 8 KB at most).
struct GlyphBits {
    private var words: [UInt64] = []

    /// Adds `id`; true when it was not in the set.
    mutating func insert(_ id: UInt32) -> Bool {
        let (word, bit) = (Int(id >> 6), UInt64(1) << (id & 63))
        if word >= words.count { words += [UInt64](repeating: 0, count: word + 1 - words.count) }
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        return true
    }
}
