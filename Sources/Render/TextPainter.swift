import CCairo
import Typeset

/// Draws a layout's glyph runs. For a PDF every run goes through `cairo_show_text_glyphs` with
/// its text and cluster map, so the text stays real and extractable ("office", not the ligature
/// glyph); an image needs the glyphs alone.
struct TextPainter {
    var layout: Layout
    var faces: FontFaces
    /// Drawing into a PDF: colour glyphs (which Cairo 1.16 embeds as images, without text) get
    /// an invisible text layer so the text stays extractable.
    var textLayer = false
    /// Span colours (empty: every glyph in the block's colour).
    var paints = GlyphPaints()

    /// Some face of the layout has axis values of its own (see `setFont`).
    private var layoutHasFaceVariations: Bool { layout.fonts.contains { !$0.variations.isEmpty } }

    /// A PDF gets this font's glyphs as filled outlines (see `draw`): a variable font at
    /// other than its default axis values, or a synthetic bold.
    private func drawnAsOutlines(_ font: Int) -> Bool {
        let face = layout.fonts[font]
        return !face.isColor && (!layout.variations.isEmpty || !face.variations.isEmpty || face.emboldened)
    }

    /// Sets the font options every glyph of `layout` is drawn with (Cairo keys its glyph caches
    /// on them, so `GlyphWarmup` sets the same).
    static func setFontOptions(_ cr: OpaquePointer, for layout: Layout) {
        setFontOptions(cr, variations: layout.variations)
    }

    /// The same options with these axis values.
    private static func setFontOptions(_ cr: OpaquePointer, variations: String) {
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        // Unhinted outlines and metrics: glyphs sit exactly where HarfBuzz put them at any scale.
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        // The axis values the layout was shaped with, for the outlines too.
        if !variations.isEmpty { cairo_font_options_set_variations(options, variations) }
        cairo_set_font_options(cr, options)
    }

    func draw(_ cr: OpaquePointer, lines: [Line], color: Color, stroke: TextStroke? = nil) throws {
        TextPainter.setFontOptions(cr, for: layout)
        if let stroke, stroke.width > 0 { drawStroke(cr, lines: lines, stroke: stroke) }
        color.setSource(cr)
        // The text's own storage, not a copy: a page of a long document draws a few lines of it.
        let utf8 = layout.text.utf8
        let scale = GlyphRaster.deviceScale(cr)
        let (lines, hyphens) = textLayer ? withoutHyphens(lines) : (lines, [])
        for runs in textLayer ? joinedRuns(lines, utf8: utf8) : lines.map(\.runs) {
            for run in runs where !run.glyphs.isEmpty {
                setFont(cr, run)
                if GlyphRaster.isLarge(size: run.size, scale: scale), drawLarge(cr, run: run, utf8: utf8, base: color) { continue }
                if textLayer && drawnAsOutlines(run.font) {
                    // Cairo 1.16 embeds a variable font's default instance in a PDF, whatever
                    // the axis values, and a synthetic bold face as its plain outlines: the
                    // drawn outlines go in as paths, and an invisible text layer keeps the text
                    // extractable.
                    fillOutlines(cr, run: run)
                    showInvisibleText(cr, run: run, utf8: utf8)
                    continue
                }
                if paints.isEmpty {
                    show(cr, run: run, utf8: utf8)
                } else {
                    for (piece, pieceColor) in coloured(run, base: color) {
                        pieceColor.setSource(cr)
                        show(cr, run: piece, utf8: utf8)
                    }
                    color.setSource(cr)
                }
                if textLayer, layout.fonts[run.font].isColor { showInvisibleText(cr, run: run, utf8: utf8) }
            }
        }
        for hyphen in hyphens {
            setFont(cr, hyphen)
            for (piece, pieceColor) in paints.isEmpty ? [(hyphen, color)] : coloured(hyphen, base: color) {
                pieceColor.setSource(cr)
                fillOutlines(cr, run: piece)
            }
        }
        color.setSource(cr)
        try Cairo.check(context: cr, "drawing text")
    }

    /// A PDF's runs, line by line, with consecutive left-to-right runs of one font joined across
    /// lines where their text is contiguous: one `cairo_show_text_glyphs` for a paragraph
    /// instead of one per line (Cairo's cost is mostly per call). The glyphs keep their places.
    private func joinedRuns(_ lines: [Line], utf8: String.UTF8View) -> [[GlyphRun]] {
        var out: [[GlyphRun]] = []
        var pending: GlyphRun?
        // Glyphs still to come (one more a line for its trailing space): a joined run grows
        // once to hold them, not by doubling a line at a time (this thread is the one a long
        // document waits for).
        var remaining = lines.reduce(0) { $0 + $1.runs.reduce(1) { $0 + $1.glyphs.count } }
        for line in lines {
            var kept: [GlyphRun] = []
            let trailing = trailingSpace(line, utf8: utf8)
            remaining -= 1
            // Logical order: a tagged PDF's readers take the text in drawing order (a
            // right-to-left line's runs are stored left to right).
            for k in line.runs.indices.sorted(by: { line.runs[$0].start < line.runs[$1].start }) where !line.runs[k].glyphs.isEmpty {
                let run = line.runs[k]
                remaining -= run.glyphs.count
                let space = trailing.flatMap { $0.run == k ? $0 : nil }
                if var joined = pending, joined.font == run.font, joined.metrics == run.metrics, !joined.rtl, !run.rtl,
                   joined.end == run.start, paints.isEmpty, !layout.fonts[run.font].isColor, !drawnAsOutlines(run.font) {
                    pending = nil  // the only reference to its glyphs: appended to in place, not copied a line at a time
                    let needed = joined.glyphs.count + run.glyphs.count + 1
                    if joined.glyphs.capacity < needed { joined.glyphs.reserveCapacity(needed + remaining) }
                    joined.glyphs += run.glyphs
                    joined.end = run.end
                    if let space { add(space, to: &joined) }
                    pending = joined
                    continue
                }
                if let done = pending { kept.append(done) }
                var started = run
                if let space {
                    // Copied anyway to take the space: room for the lines that may join it.
                    if !run.rtl { started.glyphs.reserveCapacity(run.glyphs.count + 1 + remaining) }
                    add(space, to: &started)
                }
                pending = started
            }
            out.append(kept)
        }
        if let done = pending { out.append([done]) }
        return out
    }

    /// A line broken at a space ends in it, but no glyph shows it: without one in the text
    /// layer the last word and the next line's first run together ("writtengolden") for text
    /// extraction and in a tagged PDF's structure. The run that ends where the shown text ends
    /// gets the font's space glyph (it draws nothing) for the line's trailing spaces (before a
    /// line separator, U+2028, that ends the line: the separator stays out of the text layer).
    /// That run's index, the glyph and where the run's text then ends; nil when the line needs none.
    private func trailingSpace(_ line: Line, utf8: String.UTF8View) -> (run: Int, glyph: Glyph, end: Int)? {
        guard let k = line.runs.indices.max(by: { line.runs[$0].end < line.runs[$1].end }) else { return nil }
        let run = line.runs[k]
        let shown = run.end
        guard shown < line.end, line.end <= utf8.count, let first = run.glyphs.first, !layout.fonts[run.font].isColor else { return nil }
        let space = faces.spaceGlyph(font: layout.fonts[run.font])
        let start = utf8.index(utf8.startIndex, offsetBy: shown)
        let rest = utf8[start..<utf8.index(start, offsetBy: line.end - shown)]
        let spaces = rest.prefix { $0 == 0x20 }.count
        guard space != 0, spaces > 0, spaces == rest.count || rest.dropFirst(spaces).elementsEqual([0xE2, 0x80, 0xA8]) else { return nil }
        var glyph = first
        (glyph.id, glyph.advance, glyph.cluster) = (space, 0, shown)
        glyph.x = line.rtl ? line.x : line.x + line.width
        return (k, glyph, shown + spaces)
    }

    /// `run` with a line's trailing space (see `trailingSpace`): logically last, so at the end
    /// of a left-to-right run and the start (visually left) of a right-to-left one.
    private func add(_ space: (run: Int, glyph: Glyph, end: Int), to run: inout GlyphRun) {
        run.end = space.end
        if run.rtl { run.glyphs.insert(space.glyph, at: 0) } else { run.glyphs.append(space.glyph) }
    }

    /// A hyphen drawn at a line's end (after a soft hyphen, or where a word was cut) is not in
    /// the text: in a PDF it is drawn as an outline, so the text layer reads the word whole
    /// ("Incomprehensibilities"). Shown as text it would share its cluster with the last letter,
    /// and Cairo would wrap the two in an ActualText span, where poppler's structure reader stops.
    /// The lines without their hyphens, and the hyphens as one-glyph runs.
    private func withoutHyphens(_ lines: [Line]) -> ([Line], [GlyphRun]) {
        var out = lines
        var hyphens: [GlyphRun] = []
        for i in out.indices where out[i].hyphen {
            // The logical end of the line, as `LineBuilder` put it there.
            guard let k = out[i].runs.indices.max(by: { out[i].runs[$0].start < out[i].runs[$1].start }),
                  !out[i].runs[k].glyphs.isEmpty else { continue }
            var mark = out[i].runs[k]
            let glyph = mark.rtl ? out[i].runs[k].glyphs.removeFirst() : out[i].runs[k].glyphs.removeLast()
            mark.glyphs = [glyph]
            hyphens.append(mark)
        }
        return (out, hyphens)
    }

    /// A run past the size Cairo may rasterise whole (see `GlyphRaster`): colour bitmaps scaled
    /// from a bounded image, outlines filled as paths on an image. False when Cairo's own
    /// drawing is already bounded: a PDF embeds outline glyphs as a font, not as images.
    private func drawLarge(_ cr: OpaquePointer, run: GlyphRun, utf8: String.UTF8View, base: Color) -> Bool {
        let font = layout.fonts[run.font]
        if font.isColor {
            let options = cairo_font_options_create()
            defer { cairo_font_options_destroy(options) }
            cairo_get_font_options(cr, options)
            GlyphRaster.showScaledBitmaps(cr, run: run, face: faces[font], options: options)
            if textLayer { showInvisibleText(cr, run: run, utf8: utf8) }
            return true
        }
        guard !textLayer else { return false }
        for (piece, pieceColor) in paints.isEmpty ? [(run, base)] : coloured(run, base: base) {
            pieceColor.setSource(cr)
            fillOutlines(cr, run: piece)
        }
        base.setSource(cr)
        return true
    }

    /// The glyph outlines stroked twice as wide as asked: the fill covers the inner half.
    private func drawStroke(_ cr: OpaquePointer, lines: [Line], stroke: TextStroke) {
        cairo_save(cr)
        stroke.color.setSource(cr)
        cairo_set_line_width(cr, 2 * stroke.width)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_new_path(cr)
        for line in lines {
            for run in line.runs where !run.glyphs.isEmpty && !layout.fonts[run.font].isColor {
                setFont(cr, run)
                var glyphs = cairoGlyphs(run)
                cairo_glyph_path(cr, &glyphs, Int32(glyphs.count))
            }
        }
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// The run cut where a span's colour changes (one shaped run: a colour change does not break
    /// ligatures or kerning), each piece with its colour and its own byte range, so a PDF's
    /// text stays whole.
    func coloured(_ run: GlyphRun, base: Color) -> [(GlyphRun, Color)] {
        let colours = paints.paints(of: run).map { $0?.color ?? base }
        let groups = colours.stretches(==)
        guard groups.count > 1 else { return [(run, colours.first ?? base)] }
        return groups.enumerated().map { k, range in
            var piece = run
            piece.glyphs = Array(run.glyphs[range])
            let clusters = piece.glyphs.map(\.cluster)
            piece.start = clusters.min()!
            // It ends where the text of the next piece in logical order starts.
            let neighbour = run.rtl ? (k > 0 ? groups[k - 1] : nil) : (k + 1 < groups.count ? groups[k + 1] : nil)
            piece.end = neighbour.map { r in run.glyphs[r].map(\.cluster).min()! } ?? run.end
            return (piece, colours[range.lowerBound])
        }
    }

    /// The run's face at its size; italic asked of a face without it is slanted as Fontconfig's
    /// synthetic oblique (a 0.2 shear), as Pango draws it.
    func setFont(_ cr: OpaquePointer, _ run: GlyphRun) {
        let face = layout.fonts[run.font]
        cairo_set_font_face(cr, faces[face])
        // A face with axis values of its own (a weight on a variable font) is drawn with them,
        // then the layout's over them, as it was shaped.
        if layoutHasFaceVariations {
            TextPainter.setFontOptions(cr, variations: FontVariations.joined(face.variations, layout.variations))
        }
        var matrix = cairo_matrix_t()
        cairo_matrix_init_scale(&matrix, run.size, run.size)
        if run.metrics.oblique { matrix.xy = -0.2 * run.size }
        cairo_set_font_matrix(cr, &matrix)
    }

    private func cairoGlyphs(_ run: GlyphRun) -> [cairo_glyph_t] {
        run.glyphs.map { cairo_glyph_t(index: UInt($0.id), x: $0.x, y: $0.y) }
    }

    /// A run's glyphs filled as outlines with the current source.
    private func fillOutlines(_ cr: OpaquePointer, run: GlyphRun) {
        var glyphs = cairoGlyphs(run)
        cairo_new_path(cr)
        cairo_glyph_path(cr, &glyphs, Int32(glyphs.count))
        cairo_fill(cr)
    }

    private func show(_ cr: OpaquePointer, run: GlyphRun, utf8: String.UTF8View) {
        var glyphs = cairoGlyphs(run)
        guard textLayer, var clusters = clusterMap(run) else {
            cairo_show_glyphs(cr, &glyphs, Int32(glyphs.count))
            return
        }
        let bytes = cairoSafeText(utf8, run.start..<run.end)
        if !run.rtl { clusters = TextPainter.splitMarks(clusters, text: bytes) }
        bytes.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { text in
                cairo_show_text_glyphs(cr, text.baseAddress, Int32(text.count), &glyphs, Int32(glyphs.count), &clusters, Int32(clusters.count),
                                       run.rtl ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(rawValue: 0))
            }
        }
    }

    /// A cluster of a letter and combining diacritics drawn as a glyph each ("q" + U+0323 +
    /// U+0302) would need an ActualText span (Cairo maps one glyph to one text, and the "q"
    /// glyph already reads "q"); poppler's structure reader stops at such spans. Where the
    /// glyphs are as many as the characters and every character after the first is a
    /// positional diacritic (canonical combining class 200 and up: Latin, Greek, Cyrillic
    /// accents, which keep their order in the glyphs), the cluster is split into one cluster
    /// per glyph. Anything else (Indic reordering, Arabic marks) keeps its span.
    static func splitMarks(_ clusters: [cairo_text_cluster_t], text: [UInt8]) -> [cairo_text_cluster_t] {
        guard clusters.contains(where: { $0.num_glyphs > 1 }) else { return clusters }
        var out: [cairo_text_cluster_t] = []
        var offset = 0
        for cluster in clusters {
            defer { offset += Int(cluster.num_bytes) }
            let scalars = String(decoding: text[offset..<offset + Int(cluster.num_bytes)], as: UTF8.self).unicodeScalars
            guard cluster.num_glyphs > 1, scalars.count == Int(cluster.num_glyphs),
                  scalars.dropFirst().allSatisfy({ $0.properties.canonicalCombiningClass.rawValue >= 200 }) else {
                out.append(cluster)
                continue
            }
            out += scalars.map { cairo_text_cluster_t(num_bytes: Int32($0.utf8.count), num_glyphs: 1) }
        }
        return out
    }

    /// Cairo refuses text with Unicode noncharacters (U+FDD0...U+FDEF, U+xxFFFE/F), though
    /// they are valid UTF-8: each becomes a replacement of the same byte length (U+FFFD, or
    /// U+10FFFD for the four-byte ones) so the cluster map still fits.
    func cairoSafeText(_ utf8: String.UTF8View, _ range: Range<Int>) -> [UInt8] {
        // Copied from the text's contiguous bytes (the view's iterator goes a byte at a time);
        // a run's bytes lie in its layout's text, which the slice below would not check.
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8.count, "a run's text outside its layout's")
        var text = String(utf8)
        let bytes = text.withUTF8 { Array(UnsafeBufferPointer(rebasing: $0[range])) }
        // Every noncharacter is encoded as EF B7 90...AF, EF BF BE/BF, or four bytes ending
        // in BF BE/BF: text without an EF or F0...F4 byte has none (one pass, no copy).
        guard bytes.contains(where: { $0 == 0xEF || (0xF0...0xF4).contains($0) }) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            let v = scalar.value
            let nonCharacter = (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE
            let shown: Unicode.Scalar = nonCharacter ? (v > 0xFFFF ? "\u{10FFFD}" : "\u{FFFD}") : scalar
            out.append(contentsOf: shown.utf8)
        }
        return out
    }

    /// The run's text again in glyphs that draw nothing: the PDF text layer gets the text.
    /// First in `BlankFont`, a glyph per cluster mapped to its text; when that font's glyphs
    /// are all used, in a blank (space) glyph of an outline font, which Cairo maps with
    /// ActualText (the glyph's own mapping is a space).
    private func showInvisibleText(_ cr: OpaquePointer, run: GlyphRun, utf8: String.UTF8View) {
        if let blank = faces.blank, let glyphs = InvisibleGlyphs.of(cr, face: blank),
           showBlank(cr, run: run, utf8: utf8, glyphs: glyphs) { return }
        // The run's own font where it has a blank glyph (drawn emboldened or at other axis values
        // it is still blank), else a font with a real space, else any blank glyph.
        let own = layout.fonts[run.font]
        guard let font = !own.isColor && faces.blankGlyph(font: own) != 0 ? own
                : layout.fonts.first(where: { !$0.isColor && faces.spaceGlyph(font: $0) != 0 })
                ?? layout.fonts.first(where: { !$0.isColor && faces.blankGlyph(font: $0) != 0 }) else { return }
        var blank = run
        for i in blank.glyphs.indices { blank.glyphs[i].id = faces.blankGlyph(font: font) }
        cairo_save(cr)
        cairo_set_font_face(cr, faces[font])
        cairo_set_font_size(cr, run.size)
        show(cr, run: offPixelEdges(cr, blank), utf8: utf8)
        cairo_restore(cr)
    }

    /// Blank glyphs moved by 1/64 device pixel where they sit on a pixel edge: Cairo measures
    /// a glyph without ink as a point, rounds it out to whole pixels, and drops text whose box
    /// is empty, so a blank glyph at a whole-pixel position (the first glyph of a card's text)
    /// would leave no text at all.
    private func offPixelEdges(_ cr: OpaquePointer, _ run: GlyphRun) -> GlyphRun {
        var out = run
        var nudge = (x: 1.0 / 64, y: 1.0 / 64)
        cairo_device_to_user_distance(cr, &nudge.x, &nudge.y)
        let onEdge = { (v: Double) in abs(v - v.rounded()) < 1.0 / 128 }
        for i in out.glyphs.indices {
            var (x, y) = (out.glyphs[i].x, out.glyphs[i].y)
            cairo_user_to_device(cr, &x, &y)
            if onEdge(x) { out.glyphs[i].x += nudge.x }
            if onEdge(y) { out.glyphs[i].y += nudge.y }
        }
        return out
    }

    /// The run as one `BlankFont` glyph per cluster, at the cluster's first glyph; false (and
    /// nothing drawn) when the font has no glyph left for some cluster's text.
    private func showBlank(_ cr: OpaquePointer, run: GlyphRun, utf8: String.UTF8View, glyphs table: InvisibleGlyphs) -> Bool {
        var blank = run
        blank.glyphs = []
        for glyph in run.glyphs where blank.glyphs.last?.cluster != glyph.cluster { blank.glyphs.append(glyph) }
        let starts = Set(blank.glyphs.map(\.cluster)).sorted()
        var ends: [Int: Int] = [:]
        for (k, start) in starts.enumerated() { ends[start] = k + 1 < starts.count ? starts[k + 1] : run.end }
        for i in blank.glyphs.indices {
            let start = blank.glyphs[i].cluster
            guard let end = ends[start], end > start, end <= utf8.count else { return false }
            guard let id = table.glyph(for: cairoSafeText(utf8, start..<end)) else { return false }
            blank.glyphs[i].id = id
        }
        cairo_save(cr)
        cairo_set_font_face(cr, table.face)
        cairo_set_font_size(cr, run.size)
        show(cr, run: offPixelEdges(cr, blank), utf8: utf8)
        cairo_restore(cr)
        return true
    }

    /// Cairo's cluster map: clusters in text order; for a right-to-left run they map glyphs from
    /// the end of the glyph array (the BACKWARD flag). Nil when the glyph clusters do not walk
    /// the text monotonically (then the glyphs are drawn without text).
    func clusterMap(_ run: GlyphRun) -> [cairo_text_cluster_t]? {
        let logical = run.rtl ? Array(run.glyphs.reversed()) : run.glyphs
        guard let first = logical.first, first.cluster == run.start else { return nil }
        var clusters: [cairo_text_cluster_t] = []
        var i = 0
        while i < logical.count {
            let start = logical[i].cluster
            var j = i
            while j < logical.count && logical[j].cluster == start { j += 1 }
            let end = j < logical.count ? logical[j].cluster : run.end
            guard end > start else { return nil }
            clusters.append(cairo_text_cluster_t(num_bytes: Int32(end - start), num_glyphs: Int32(j - i)))
            i = j
        }
        return clusters
    }
}
