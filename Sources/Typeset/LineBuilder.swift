import CHarfBuzz

/// Per-layout state while building lines: the span styles at this size, faces used so far and
/// shaping.
struct LayoutContext {
    var styles: [RunStyle]
    var shapingFont: (Int, Int) throws -> ShapingFont
    /// Word spacing and a fixed line height, from the block's style.
    var wordSpacing = 0.0
    var lineHeight: Double?
    /// Vertical metrics from each span style's first font, not the fallback that drew a run.
    var evenPitch = false
    /// Faces in order of first use, and each (style, chain candidate)'s index in `faces`.
    private(set) var faces: [FontFace] = []
    private var faceIndex: [FontFace: Int] = [:]
    /// The word cache of a long text's layout (a reference: copies of the context share it);
    /// nil: each run is shaped whole (a short text repeats too few words to gain from it).
    var words: WordShaper?

    /// `shapingFont(face, size)` makes (or finds) a font at a size; each (style, candidate)'s
    /// is asked for once a layout (the library's lookup takes a lock and hashes the face's
    /// path, and a line asks for its runs' fonts several times).
    init(styles: [RunStyle], shapingFont: @escaping (FontFace, Double) throws -> ShapingFont) {
        self.styles = styles
        let known = FontMemo()
        self.shapingFont = { style, candidate in
            let key = style << 32 | candidate
            if let font = known.fonts[key] { return font }
            let font = try shapingFont(styles[style].chain.candidates[candidate].face, styles[style].size)
            known.fonts[key] = font
            return font
        }
    }

    /// The fonts one layout has asked for (used by the thread laying it out).
    private final class FontMemo {
        var fonts: [Int: ShapingFont] = [:]
    }

    func shape(_ run: ItemRun, bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) throws -> [ShapedGlyph] {
        let style = styles[run.style]
        let font = try shapingFont(run.style, run.font)
        var glyphs = words?.shape(font, bytes, range: range, rtl: run.rtl, script: run.script, language: style.language,
                                  features: style.features)
            ?? font.shape(bytes, range: range, rtl: run.rtl, script: run.script, language: style.language, features: style.features)
        Spacing.apply(&glyphs, utf8: bytes, script: run.script, letter: style.letterSpacing, word: wordSpacing)
        return glyphs
    }

    mutating func layoutFont(_ style: Int, _ candidate: Int) -> Int {
        let face = styles[style].chain.candidates[candidate].face
        if let index = faceIndex[face] { return index }
        faces.append(face)
        faceIndex[face] = faces.count - 1
        return faces.count - 1
    }

    /// The width of the hyphen a line ending at `offset` would show, or nil when it shows none:
    /// `soft`, the break follows a soft hyphen; else it is a cut between two clusters of a word.
    func hyphenWidth(in paragraph: ShapedParagraph, at offset: Int, soft: Bool) throws -> Double? {
        // Called for every break candidate while filling lines: the cheap tests come first, and
        // the lookups are binary searches.
        guard let before = paragraph.clusterIndex(endingAt: offset) else { return nil }
        let cluster = paragraph.clusters[before]
        if soft {
            guard cluster.scalars.elementsEqual([Hyphens.softHyphen]) || paragraph.isHyphenationPoint(offset) else { return nil }
        } else {
            guard before + 1 < paragraph.clusters.count, Hyphens.isWordCluster(cluster),
                  Hyphens.isWordCluster(paragraph.clusters[before + 1]) else { return nil }
        }
        guard let run = paragraph.run(containing: cluster.start),
              soft ? Hyphens.softHyphenShows(script: run.script) : Hyphens.emergencyHyphen(script: run.script) else { return nil }
        return try shapingFont(run.style, run.font).hyphen()?.advance
    }

    /// One line of `paragraph` over `range`: glyph pieces (re-shaped where a break cuts a run at
    /// a glyph HarfBuzz marks unsafe to break), in visual order, positioned from x = 0 with y
    /// relative to the baseline; `top` is 0 (the caller stacks lines).
    mutating func buildLine(_ range: Range<Int>, in paragraph: ShapedParagraph, bytes: UnsafeBufferPointer<UInt8>,
                            lineSpacing: Double, hyphen: Bool = false) throws -> Line {
        let visibleEnd = paragraph.trimmedEnd(range.lowerBound, range.upperBound)
        struct Piece { var run: ItemRun; var glyphs: [ShapedGlyph] }
        var pieces: [Piece] = []
        for index in paragraph.runIndices(overlapping: range.lowerBound, visibleEnd) {
            let run = paragraph.runs[index]
            let start = max(run.start, range.lowerBound), end = min(run.end, visibleEnd)
            guard start < end else { continue }
            let shaped = paragraph.glyphs[index]
            var glyphs = Array(shaped[paragraph.glyphRange(ofRun: index, start, end)])
            // A cut must fall where a glyph starts and HarfBuzz allows a break; else re-shape.
            let unsafe = { (offset: Int) in
                let at = paragraph.glyphRange(ofRun: index, offset, offset + 1)  // glyphs of the cluster at offset
                return at.isEmpty || shaped[at].contains { $0.unsafeToBreak }
            }
            if (start > run.start && unsafe(start)) || (end < run.end && unsafe(end)) {
                glyphs = try shape(run, bytes: bytes, range: start..<end)
            }
            var piece = run
            piece.start = start
            piece.end = end
            pieces.append(Piece(run: piece, glyphs: glyphs))
        }
        // The hyphen goes at the logical end of the line, in the font of its last run.
        if hyphen, let last = pieces.indices.max(by: { pieces[$0].run.start < pieces[$1].run.start }),
           let mark = try shapingFont(pieces[last].run.style, pieces[last].run.font).hyphen() {
            let cluster = paragraph.clusters[paragraph.clusterIndex(endingAt: visibleEnd) ?? 0].start
            let glyph = ShapedGlyph(id: mark.id, cluster: cluster, advance: mark.advance, xOffset: 0, yOffset: 0, unsafeToBreak: false)
            if pieces[last].run.rtl { pieces[last].glyphs.insert(glyph, at: 0) } else { pieces[last].glyphs.append(glyph) }
        }
        // UAX #9 L2: from the highest level down to the lowest odd one, reverse every maximal
        // sequence of pieces at that level or above.
        if let highest = pieces.map(\.run.level).max(),
           let lowestOdd = pieces.map(\.run.level).filter({ $0 & 1 == 1 }).min() {
            for level in stride(from: Int(highest), through: Int(lowestOdd), by: -1) {
                var i = 0
                while i < pieces.count {
                    guard pieces[i].run.level >= level else { i += 1; continue }
                    var j = i
                    while j < pieces.count && pieces[j].run.level >= level { j += 1 }
                    pieces[i..<j].reverse()
                    i = j
                }
            }
        }
        var x = 0.0
        var runs: [GlyphRun] = []
        var ascent = 0.0, descent = 0.0
        var families: [String] = []
        for piece in pieces {
            let font = layoutFont(piece.run.style, piece.run.font)
            let style = styles[piece.run.style]
            let shaping = try shapingFont(piece.run.style, piece.run.font)
            var metrics = shaping.runMetrics
            metrics.rise = style.rise
            metrics.oblique = faces[font].slantsSynthetically(italicAsked: style.italic)
            // A raised or lowered run reaches further up or down: the line makes room for it.
            // (A run in its style's first font already has them: no second font lookup.)
            let extent = evenPitch && piece.run.font != 0 ? try shapingFont(piece.run.style, 0).runMetrics : metrics
            ascent = max(ascent, extent.ascent + style.rise)
            descent = max(descent, extent.descent - style.rise)
            let glyphs = piece.glyphs.map { shaped -> Glyph in
                defer { x += shaped.advance }
                return Glyph(id: shaped.id, x: x + shaped.xOffset, y: -shaped.yOffset - style.rise, advance: shaped.advance,
                             cluster: shaped.cluster)
            }
            runs.append(GlyphRun(font: font, metrics: metrics, rtl: piece.run.rtl, start: piece.run.start, end: piece.run.end,
                                 glyphs: glyphs, level: piece.run.level))
        }
        for run in runs.sorted(by: { $0.start < $1.start }) where !families.contains(faces[run.font].family) {
            families.append(faces[run.font].family)
        }
        if runs.isEmpty || lineHeight != nil {
            // Empty lines, and every line at a fixed line height, use the primary font's
            // metrics: rows are then even whatever a line falls back to.
            let primary = try shapingFont(0, 0)
            ascent = primary.ascent
            descent = primary.descent
        }
        let natural = ascent + descent
        let height = lineHeight ?? natural * lineSpacing
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        return Line(start: range.lowerBound, end: range.upperBound, text: text, x: 0, top: 0, width: x,
                    height: height, baseline: (height - natural) / 2 + ascent, rtl: paragraph.rtl,
                    paragraph: paragraph.paragraph.index, runs: runs, fonts: families, hyphen: hyphen)
    }
}
