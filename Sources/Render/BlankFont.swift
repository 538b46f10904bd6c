import CCairo
import Typeset

/// A TrueType font whose every glyph is blank, for a PDF's invisible text layer (the text over
/// colour emoji, which Cairo embeds as images, and over glyphs drawn as outlines).
///
/// Why a font of our own: Cairo writes a glyph's text into the font's ToUnicode map the first
/// time the glyph is shown with that text, and only when the glyph has no text yet; any other
/// text needs a nested `/Span << /ActualText >>`, and poppler's structure reader stops at the
/// first one (issue 50). The run's own space glyph already maps to " ". Here each distinct
/// text a document shows invisibly gets a glyph of its own (`InvisibleGlyphs`), so ToUnicode
/// carries it and no span is needed.
///
/// The font has no cmap (no glyph maps to a character until Cairo maps it), one advance for
/// every glyph (positions come from the layout), and no outlines.
enum BlankFont {
    /// Glyph 0 is .notdef; 1 ..< glyphCount are handed out.
    static let glyphCount = 65_535
    static let unitsPerEm = 1000
    /// Every glyph's advance: an em, about an emoji's width (text extraction measures words by it).
    static let advance = 1000
    /// The family and PostScript name written into the PDF.
    static let name = "HLRenderInvisibleText"

    /// The font file, built once.
    static let bytes: [UInt8] = build()

    private static func build() -> [UInt8] {
        let n = glyphCount
        var head = Writer()
        head.u32(0x0001_0000); head.u32(0x0001_0000)  // version, fontRevision
        head.u32(0)  // checkSumAdjustment, set by `WebFont.assemble`
        head.u32(0x5F0F_3CF5)  // magic
        head.u16(0x000B)  // flags: baseline and left sidebearing at 0, integer scaling
        head.u16(UInt16(unitsPerEm))
        head.zeros(16)  // created, modified
        head.u16(0); head.u16(UInt16(bitPattern: -200)); head.u16(UInt16(advance)); head.u16(800)  // xMin, yMin, xMax, yMax
        head.u16(0); head.u16(8); head.u16(2)  // macStyle, lowestRecPPEM, fontDirectionHint
        head.u16(0); head.u16(0)  // indexToLocFormat (short), glyphDataFormat

        var hhea = Writer()
        hhea.u32(0x0001_0000)
        hhea.u16(800); hhea.u16(UInt16(bitPattern: -200)); hhea.u16(0)  // ascender, descender, lineGap
        hhea.u16(UInt16(advance)); hhea.zeros(6)  // advanceWidthMax, minLSB, minRSB, xMaxExtent
        hhea.u16(1); hhea.u16(0); hhea.u16(0)  // caret slope rise, run, offset
        hhea.zeros(8); hhea.u16(0)  // reserved, metricDataFormat
        hhea.u16(1)  // numberOfHMetrics: one advance for all

        var maxp = Writer()
        maxp.u32(0x0001_0000); maxp.u16(UInt16(n))
        maxp.zeros(4 * 2); maxp.u16(2); maxp.zeros(9 * 2)  // no points or contours; maxZones 2

        var hmtx = Writer()
        hmtx.u16(UInt16(advance)); hmtx.u16(0)
        hmtx.zeros(2 * (n - 1))  // left side bearings

        var loca = Writer()
        loca.zeros(2 * (n + 1))  // every glyph empty

        var glyf = Writer()
        glyf.zeros(4)  // FreeType and Cairo expect the table; no glyph reads it

        var name = Writer()
        let utf16 = BlankFont.name.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let ids: [UInt16] = [1, 2, 4, 6]  // family, subfamily, full name, PostScript name
        let style = "Regular".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        name.u16(0); name.u16(UInt16(ids.count)); name.u16(UInt16(6 + 12 * ids.count))
        var strings: [UInt8] = []
        for id in ids {
            let value = id == 2 ? style : utf16
            name.u16(3); name.u16(1); name.u16(0x0409); name.u16(id)  // Windows, Unicode BMP, en-US
            name.u16(UInt16(value.count)); name.u16(UInt16(strings.count))
            strings += value
        }
        name.bytes += strings

        var post = Writer()
        post.u32(0x0003_0000); post.u32(0)  // format 3: no glyph names; italicAngle
        post.u16(UInt16(bitPattern: -100)); post.u16(50)  // underline position, thickness
        post.u32(0); post.zeros(16)  // isFixedPitch, memory hints

        // Sorted, checksummed and adjusted as a web font's decoded tables are.
        return WebFont.assemble(flavour: 0x0001_0000, tables: [("glyf", glyf.bytes), ("head", head.bytes), ("hhea", hhea.bytes),
                                ("hmtx", hmtx.bytes), ("loca", loca.bytes), ("maxp", maxp.bytes), ("name", name.bytes),
                                ("post", post.bytes)].map { (openTypeTag($0.0), $0.1) })
    }

    private struct Writer {
        var bytes: [UInt8] = []
        mutating func u16(_ v: UInt16) { bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        mutating func u32(_ v: UInt32) { u16(UInt16(v >> 16)); u16(UInt16(v & 0xFFFF)) }
        mutating func zeros(_ n: Int) { bytes += [UInt8](repeating: 0, count: n) }
    }
}

/// One PDF's glyphs of `BlankFont`: each distinct text shown invisibly gets its own glyph, the
/// first time it is shown (Cairo's font subsets, and so the ToUnicode map, are per surface).
/// One document is drawn by one thread: not for use from two at once.
final class InvisibleGlyphs {
    /// The blank font's Cairo face (referenced).
    let face: OpaquePointer
    private var ids: [[UInt8]: UInt32] = [:]

    init(face: OpaquePointer) { self.face = cairo_font_face_reference(face) }

    deinit { cairo_font_face_destroy(face) }

    /// The glyph that shows `text`, nil when the font's glyphs are all handed out (the caller
    /// falls back to an ActualText span).
    func glyph(for text: [UInt8]) -> UInt32? {
        if let id = ids[text] { return id }
        guard ids.count + 1 < BlankFont.glyphCount else { return nil }
        let id = UInt32(ids.count + 1)
        ids[text] = id
        return id
    }
}

extension InvisibleGlyphs {
    nonisolated(unsafe) private static var key = cairo_user_data_key_t(unused: 0)

    /// The glyphs of the document `cr` draws (a PDF context lives as long as its document),
    /// made on first use over `face`.
    static func of(_ cr: OpaquePointer, face: OpaquePointer) -> InvisibleGlyphs? {
        if let pointer = cairo_get_user_data(cr, &key) {
            return Unmanaged<InvisibleGlyphs>.fromOpaque(pointer).takeUnretainedValue()
        }
        let glyphs = InvisibleGlyphs(face: face)
        let retained = Unmanaged.passRetained(glyphs).toOpaque()
        let status = cairo_set_user_data(cr, &key, retained) { $0.map { Unmanaged<InvisibleGlyphs>.fromOpaque($0).release() } }
        guard status == CAIRO_STATUS_SUCCESS else {
            Unmanaged<InvisibleGlyphs>.fromOpaque(retained).release()
            return nil
        }
        return glyphs
    }
}
