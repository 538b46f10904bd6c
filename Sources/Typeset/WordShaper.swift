import CHarfBuzz
import Support

/// A four-letter OpenType or ISO 15924 tag as the integer HarfBuzz uses ("Latn", "GSUB").
package func openTypeTag(_ text: String) -> UInt32 { text.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

/// Shapes a run a word at a time from a cache of the words shaped so far: a text repeats its
/// words, and a hit costs a hash instead of HarfBuzz's pass over the word. The glyphs are the
/// ones shaping the run whole gives when nothing reaches across a space: the font has no
/// lookup whose glyphs include the space (nor an old `kern` or AAT table), every feature
/// covers the whole text, and the script is one whose shaping stops at a space: Latin, Greek
/// and Cyrillic (HarfBuzz's default shaper, no context), and Arabic right to left (a space
/// joins nothing: a word between spaces takes the forms it takes alone; the run's glyphs are
/// its words' in reverse order). A right-to-left word at the run's edge next to
/// anything but a space is shaped in place, since joining reads across a run's edge (a bold
/// span inside a word). Blink's and Gecko's word caches rest on the same check. Anything else
/// is shaped whole. Used by one layout at a time (`WordShapers`).
final class WordShaper {
    /// What shapes a word besides its bytes.
    private struct Setup: Hashable {
        var font: ObjectIdentifier
        var language: UInt
        var features: [UInt64]
        var script: UInt32
    }

    /// Per setup, each word's glyphs with clusters relative to the word's start.
    private var tables: [Setup: [[UInt8]: [ShapedGlyph]]] = [:]
    /// The fonts keyed by identity, kept alive so that no other font takes an identity over.
    private var fonts: [ObjectIdentifier: ShapingFont] = [:]
    /// What the cache holds, as counted against `byteLimit`.
    private(set) var cachedBytes = 0
    /// Words past this many bytes of cache are shaped without being kept, and so are words
    /// longer than `wordLimit` (they seldom repeat; a hostile text's one huge "word" would
    /// otherwise be held twice).
    static let byteLimit = 4 << 20
    static let wordLimit = 64
    private static let scripts: Set<UInt32> = Set(["Latn", "Grek", "Cyrl"].map(openTypeTag))
    private static let rightToLeftScripts: Set<UInt32> = Set(["Arab"].map(openTypeTag))

    /// The run's glyphs (`ShapingFont.shape`'s), a word at a time where that is the same.
    func shape(_ font: ShapingFont, _ utf8: UnsafeBufferPointer<UInt8>, range: Range<Int>, rtl: Bool, script: UInt32,
               language: hb_language_t?, features: [hb_feature_t]) -> [ShapedGlyph] {
        guard rtl ? WordShaper.rightToLeftScripts.contains(script) : WordShaper.scripts.contains(script),
              features.allSatisfy({ $0.start == 0 && $0.end == UInt32.max }), font.spaceStandsAlone else {
            return font.shape(utf8, range: range, rtl: rtl, script: script, language: language, features: features)
        }
        let setup = Setup(font: ObjectIdentifier(font), language: UInt(bitPattern: language.map { UnsafeRawPointer($0) }),
                          features: features.map { UInt64($0.tag) << 32 | UInt64($0.value) }, script: script)
        if tables[setup] == nil {
            // A new setup (and the font it keeps alive) counts against the budget too.
            guard cachedBytes < WordShaper.byteLimit else {
                return font.shape(utf8, range: range, rtl: rtl, script: script, language: language, features: features)
            }
            cachedBytes += 256 + 8 * setup.features.count
            fonts[setup.font] = font
        }
        var table = tables.removeValue(forKey: setup) ?? [:]  // held alone while it changes
        defer { tables[setup] = table }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(range.count)
        // Right to left, HarfBuzz gives a run's glyphs in visual order, the last word first:
        // the pieces (glyphs with clusters from their start, and that start) wait to be placed.
        var held: [(glyphs: [ShapedGlyph], start: Int)] = []
        func append(_ piece: [ShapedGlyph], at start: Int) {
            for var glyph in piece {
                glyph.cluster += start
                glyphs.append(glyph)
            }
        }
        func place(_ piece: [ShapedGlyph], at start: Int) {
            if rtl { held.append((piece, start)) } else { append(piece, at: start) }
        }
        var start = range.lowerBound
        while start < range.upperBound {
            // A word, or the spaces after it: each its own piece.
            // A piece ends only where ASCII other than a space follows the spaces: a mark, a
            // joiner or a selector after a space belongs to it (one grapheme cluster).
            var end = start + 1
            while end < range.upperBound, !(utf8[end - 1] == 0x20 && utf8[end] != 0x20 && utf8[end] < 0x80)
                    && !(utf8[end - 1] != 0x20 && utf8[end] == 0x20) { end += 1 }
            let relative = { (shaped: [ShapedGlyph]) in
                shaped.map { glyph in
                    var glyph = glyph
                    glyph.cluster -= start
                    return glyph
                }
            }
            // Right to left, a piece whose text goes on past the run's edge joins across it.
            let joinsOut = rtl && ((start == range.lowerBound && start > 0 && utf8[start - 1] != 0x20)
                || (end == range.upperBound && end < utf8.count && utf8[end] != 0x20))
            if joinsOut {
                place(relative(font.shape(utf8, range: start..<end, rtl: rtl, script: script, language: language, features: features)), at: start)
                start = end
                continue
            }
            let word = Array(utf8[start..<end])
            var piece = table[word]
            if piece == nil {
                let shaped = relative(font.shape(utf8, range: start..<end, rtl: rtl, script: script, language: language, features: features))
                piece = shaped
                let cost = word.count + 64 + MemoryLayout<ShapedGlyph>.stride * shaped.count
                if word.count <= WordShaper.wordLimit, cachedBytes + cost <= WordShaper.byteLimit {
                    cachedBytes += cost
                    table[word] = piece
                }
            }
            place(piece!, at: start)
            start = end
        }
        for piece in held.reversed() { append(piece.glyphs, at: piece.start) }
        return glyphs
    }
}

/// The word caches of one long text's layouts (its chunks, a few at once on other cores):
/// each layout takes one and gives it back, so a chunk starts with the words the chunks
/// before it shaped. At most one cache per layout running at once, each bounded.
package final class WordShapers: @unchecked Sendable {
    private let lock = Lock()
    private var idle: [WordShaper] = []

    /// No words yet.
    package init() {}

    func take() -> WordShaper { lock.withLock { idle.popLast() } ?? WordShaper() }
    func give(_ shaper: WordShaper) { lock.withLock { idle.append(shaper) } }
}

extension HarfBuzzFace {
    /// Whether no lookup of the font's GSUB or GPOS has the space glyph among its glyphs
    /// (before, in, after or out), and no `kern`, `morx` or `mort` table can act on it.
    static func spaceStandsAlone(_ face: OpaquePointer) -> Bool {
        for table in ["kern", "morx", "mort"] {
            let blob = hb_face_reference_table(face, openTypeTag(table))
            defer { hb_blob_destroy(blob) }
            if hb_blob_get_length(blob) > 0 { return false }
        }
        guard let font = hb_font_create(face) else { return false }
        defer { hb_font_destroy(font) }
        var space: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, 0x20, &space) != 0 else { return false }
        let sets = (0..<4).map { _ in hb_set_create() }
        defer { sets.forEach { hb_set_destroy($0) } }
        for table in ["GSUB", "GPOS"].map(openTypeTag) {
            for lookup in 0..<hb_ot_layout_table_get_lookup_count(face, table) {
                sets.forEach { hb_set_clear($0) }
                hb_ot_layout_lookup_collect_glyphs(face, table, lookup, sets[0], sets[1], sets[2], sets[3])
                if sets.contains(where: { hb_set_has($0, space) != 0 }) { return false }
            }
        }
        return true
    }
}
