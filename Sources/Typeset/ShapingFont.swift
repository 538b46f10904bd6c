import CHarfBuzz
import Support

/// One glyph as HarfBuzz returns it, in pixels.
struct ShapedGlyph {
    var id: UInt32
    /// UTF-8 byte offset into the buffer's text.
    var cluster: Int
    var advance: Double
    var xOffset: Double
    var yOffset: Double
    var unsafeToBreak: Bool
}

/// A font file's HarfBuzz face, made once per (file, index) over the file's shared blob:
/// `hb_face_t` is immutable once made, so any thread may create fonts from it.
final class HarfBuzzFace: @unchecked Sendable {
    let face: OpaquePointer
    /// Keeps the bytes the face reads alive.
    let blob: FontBlob

    init(blob: FontBlob, index: Int) throws {
        guard hb_face_count(blob.blob) > UInt32(index), let face = hb_face_create(blob.blob, UInt32(index)) else {
            throw TypesetError.notAFont(blob.file)
        }
        if let damage = SFNTDirectory.damage(blob.bytes, index: index) {
            hb_face_destroy(face)
            throw TypesetError.damagedFont(blob.file, damage)
        }
        self.face = face
        self.blob = blob
    }

    deinit { hb_face_destroy(face) }

    let lock = Lock()
    private var standsAlone: Bool?
    /// The face's axes and instances once read (`variableFace`); nil: not read yet.
    var variable: VariableFace??

    /// Whether a word may be shaped apart from the spaces around it (`WordShaper`): read from
    /// the font's lookups once, on first need.
    var spaceStandsAlone: Bool {
        lock.withLock {
            if let standsAlone { return standsAlone }
            let value = HarfBuzzFace.spaceStandsAlone(face)
            standsAlone = value
            return value
        }
    }
}

/// A HarfBuzz font with its own OpenType metrics (never a FreeType face Cairo also sizes), at
/// one pixel size. Shaping with it from several threads at once is safe (HarfBuzz fonts are
/// not changed after set-up).
final class ShapingFont: @unchecked Sendable {
    private let shared: HarfBuzzFace
    private let font: OpaquePointer
    private let pixelsPerUnit: Double
    let ascent: Double
    let descent: Double
    let size: Double
    /// Extents and decoration lines at this size, read once (every line piece asks for them).
    let runMetrics: RunMetrics

    /// Added to every advance of a synthetic bold face: FreeType's emboldening widens each
    /// glyph by a 24th of the size (`FT_GlyphSlot_Embolden`), and HarfBuzz 6 cannot know it.
    let emboldening: Double

    init(face shared: HarfBuzzFace, size: Double, variations: FontVariations = .none, emboldened: Bool = false) throws {
        self.shared = shared
        emboldening = emboldened ? size / 24 : 0
        guard let font = hb_font_create(shared.face) else { throw TypesetError.harfbuzz("cannot create a font") }
        self.font = font
        if !variations.isEmpty {
            variations.values.withUnsafeBufferPointer { hb_font_set_variations(font, $0.baseAddress, UInt32($0.count)) }
        }
        hb_ot_font_set_funcs(font)
        // 1/1024 px resolution, as Pango uses, so advances stay exact enough at any size.
        let scale = Int32(Checked.clamped(size * 1024, .toNearestOrAwayFromZero, in: 1...Int(Int32.max)))
        hb_font_set_scale(font, scale, scale)
        pixelsPerUnit = size / Double(scale)
        self.size = size
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        ascent = Double(extents.ascender) * pixelsPerUnit
        descent = -Double(extents.descender) * pixelsPerUnit
        runMetrics = ShapingFont.readRunMetrics(font, pixelsPerUnit: pixelsPerUnit, size: size, ascent: ascent, descent: descent)
    }

    /// An OpenType metric (post, OS/2) in px, or nil when the font has none.
    private func metric(_ tag: hb_ot_metrics_tag_t) -> Double? { ShapingFont.metric(font, pixelsPerUnit, tag) }

    private static func metric(_ font: OpaquePointer, _ pixelsPerUnit: Double, _ tag: hb_ot_metrics_tag_t) -> Double? {
        var value: hb_position_t = 0
        guard hb_ot_metrics_get_position(font, tag, &value) != 0 else { return nil }
        return Double(value) * pixelsPerUnit
    }

    /// Extents and decoration lines at this size; fonts without them get Pango-like defaults.
    private static func readRunMetrics(_ font: OpaquePointer, pixelsPerUnit: Double, size: Double, ascent: Double,
                                       descent: Double) -> RunMetrics {
        let metric = { (tag: hb_ot_metrics_tag_t) in ShapingFont.metric(font, pixelsPerUnit, tag) }
        let thickness = { (v: Double?) in v.flatMap { $0 > 0 ? $0 : nil } ?? max(1, size / 14) }
        return RunMetrics(size: size, ascent: ascent, descent: descent,
                          underlinePosition: metric(HB_OT_METRICS_TAG_UNDERLINE_OFFSET) ?? -size / 10,
                          underlineThickness: thickness(metric(HB_OT_METRICS_TAG_UNDERLINE_SIZE)),
                          strikeoutPosition: metric(HB_OT_METRICS_TAG_STRIKEOUT_OFFSET).flatMap { $0 > 0 ? $0 : nil } ?? size * 0.3,
                          strikeoutThickness: thickness(metric(HB_OT_METRICS_TAG_STRIKEOUT_SIZE)))
    }

    /// A subscript's (or superscript's) size as a fraction of this size and its baseline shift
    /// in px (up positive), from OS/2; a font without them gets 0.8 and a fifth of the size.
    func scriptPosition(superscript: Bool) -> (scale: Double, rise: Double) {
        let ySize = metric(superscript ? HB_OT_METRICS_TAG_SUPERSCRIPT_EM_Y_SIZE : HB_OT_METRICS_TAG_SUBSCRIPT_EM_Y_SIZE)
        let yOffset = metric(superscript ? HB_OT_METRICS_TAG_SUPERSCRIPT_EM_Y_OFFSET : HB_OT_METRICS_TAG_SUBSCRIPT_EM_Y_OFFSET)
        let scale = ySize.map { $0 / size }.flatMap { $0 > 0.1 && $0 <= 1 ? $0 : nil } ?? 0.8
        let offset = yOffset.flatMap { abs($0) < size ? abs($0) : nil } ?? size / 5
        return (scale, superscript ? offset : -offset)
    }

    /// The glyph drawn for a hyphen: U+2010 HYPHEN, else U+002D, with its advance.
    func hyphen() -> (id: UInt32, advance: Double)? {
        for codepoint: UInt32 in [0x2010, 0x2D] {
            var glyph: UInt32 = 0
            if hb_font_get_nominal_glyph(font, codepoint, &glyph) != 0, glyph != 0 { return (glyph, advance(of: glyph)) }
        }
        return nil
    }

    var glyphCount: Int { Int(hb_face_get_glyph_count(shared.face)) }
    /// See `HarfBuzzFace.spaceStandsAlone`.
    var spaceStandsAlone: Bool { shared.spaceStandsAlone }
    /// Which file mapping the font reads (for tests: one per file).
    var blobIdentity: ObjectIdentifier { ObjectIdentifier(shared.blob) }

    func advance(of glyph: UInt32) -> Double {
        let advance = Double(hb_font_get_glyph_h_advance(font, glyph)) * pixelsPerUnit
        return advance != 0 ? advance + emboldening : 0
    }

    /// Whether the glyph draws anything (a space or an empty glyph does not).
    func hasInk(_ glyph: UInt32) -> Bool {
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph, &extents) != 0 else { return false }
        return extents.width != 0 && extents.height != 0
    }

    deinit { hb_font_destroy(font) }

    /// Shapes `range` of `utf8` (the rest is context); clusters are offsets into `utf8`.
    /// Glyphs come in visual order (reversed for right-to-left).
    func shape(_ utf8: UnsafeBufferPointer<UInt8>, range: Range<Int>, rtl: Bool, script: UInt32,
               language: hb_language_t?, features: [hb_feature_t] = []) -> [ShapedGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        utf8.withMemoryRebound(to: CChar.self) { text in
            hb_buffer_add_utf8(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound),
                               Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        // Common/Inherited-only runs (digits, punctuation) are left to HarfBuzz's guess.
        if script != 0 { hb_buffer_set_script(buffer, hb_script_from_iso15924_tag(script)) }
        if let language { hb_buffer_set_language(buffer, language) }
        hb_buffer_guess_segment_properties(buffer)
        features.withUnsafeBufferPointer { hb_shape(font, buffer, $0.baseAddress, UInt32($0.count)) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        return (0..<Int(count)).map { i in
            var info = infos[i]
            let flags = hb_glyph_info_get_glyph_flags(&info)
            return ShapedGlyph(
                id: info.codepoint, cluster: Int(info.cluster),
                advance: positions[i].x_advance != 0 ? Double(positions[i].x_advance) * pixelsPerUnit + emboldening : 0,
                xOffset: Double(positions[i].x_offset) * pixelsPerUnit,
                yOffset: Double(positions[i].y_offset) * pixelsPerUnit,
                unsafeToBreak: flags.rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0)
        }
    }
}
