/// The typesetter's output: plain values, no C types, ready for Highlight and Render.

/// One font face as a file on disk; `Layout.fonts` holds each face used once.
package struct FontFace: Hashable, Sendable {
    package var file: String
    package var index: Int
    package var family: String
    package var style: String
    /// A colour (bitmap or layered) font, e.g. for emoji.
    package var isColor: Bool
    /// Fontconfig's style names it italic or oblique (else italic is drawn slanted).
    package var isItalic: Bool {
        let lower = style.lowercased()
        return lower.contains("italic") || lower.contains("oblique")
    }
    /// The file's name without its folder, or the name a font given as bytes was given.
    package var fileName: String { FontData.shownName(ofFile: file) }

    /// Axis values this face is drawn with, chosen from the requested weight and width
    /// ("wght=700"; empty: the font's defaults, or a static face). `--variations` goes over them.
    package var variations = ""
    /// Bold was asked for and the family has no face that heavy: outlines are emboldened as
    /// Fontconfig's synthetic rule and Cairo do (a synthetic bold, flagged in the dump).
    package var emboldened = false
    /// The named instance of a variable font these axis values are (empty: none, or static).
    package var instance = ""

    package init(file: String, index: Int, family: String, style: String, isColor: Bool) {
        self.file = file
        self.index = index
        self.family = family
        self.style = style
        self.isColor = isColor
    }

    /// Italic asked of this face is drawn slanted (it has no italic of its own), as Fontconfig's
    /// synthetic rule says: `RunMetrics.oblique`.
    package func slantsSynthetically(italicAsked: Bool) -> Bool { italicAsked && !isItalic }

    /// What a renderer made up for this face, in the layout dump's words ("bold", "oblique").
    package func synthetic(oblique: Bool) -> [String] { (emboldened ? ["bold"] : []) + (oblique ? ["oblique"] : []) }
}

/// One positioned glyph; coordinates are in layout pixels, y is the baseline.
package struct Glyph: Equatable, Sendable {
    package var id: UInt32
    package var x: Double
    package var y: Double
    package var advance: Double
    /// UTF-8 byte offset into the input of the first character this glyph shows.
    package var cluster: Int
}

/// A run's font at its size: extents around the baseline and where its underline and
/// strikethrough go (from the font's `post` and OS/2 tables), all in px, y up from the baseline.
package struct RunMetrics: Equatable, Sendable {
    package var size: Double
    package var ascent: Double
    package var descent: Double
    /// How far the run's baseline is raised above the line's (a superscript's is positive).
    package var rise = 0.0
    package var underlinePosition: Double
    package var underlineThickness: Double
    package var strikeoutPosition: Double
    package var strikeoutThickness: Double
    /// Italic was asked for and the face has none: the outlines are slanted when drawn.
    package var oblique = false

    package init(size: Double, ascent: Double, descent: Double, underlinePosition: Double, underlineThickness: Double,
                strikeoutPosition: Double, strikeoutThickness: Double) {
        (self.size, self.ascent, self.descent) = (size, ascent, descent)
        (self.underlinePosition, self.underlineThickness) = (underlinePosition, underlineThickness)
        (self.strikeoutPosition, self.strikeoutThickness) = (strikeoutPosition, strikeoutThickness)
    }
}

/// Glyphs of one font, size and direction, in visual (left-to-right) order.
package struct GlyphRun: Equatable, Sendable {
    /// Index into `Layout.fonts`.
    package var font: Int
    package var metrics: RunMetrics
    package var size: Double { metrics.size }
    package var rtl: Bool
    /// The UTF-8 byte range of the input these glyphs show.
    package var start: Int
    package var end: Int
    package var glyphs: [Glyph]
    /// The run's bidi embedding level (UAX #9: even left to right, odd right to left).
    package var level: UInt8 = 0
}

/// One line: its byte range, its box and its glyph runs in visual order.
package struct Line: Equatable, Sendable {
    /// UTF-8 byte offsets into the input, `end` exclusive (trailing spaces at a soft break are
    /// inside the range; a hard break's newline is not).
    package var start: Int
    package var end: Int
    package var text: String
    /// Box: `x` and `width` span the advances without trailing whitespace.
    package var x: Double
    package var top: Double
    package var width: Double
    package var height: Double
    package var baseline: Double
    package var rtl: Bool
    /// Index of the paragraph (hard-break separated) this line belongs to.
    package var paragraph: Int
    package var runs: [GlyphRun]
    /// Families of the fonts used on the line, in order of first use.
    package var fonts: [String]
    /// The line ends with a hyphen that was drawn (a soft hyphen, or an emergency break
    /// inside a word); it counts in `width`.
    package var hyphen = false

    package var bottom: Double { top + height }

    /// Moves every glyph by (`dx`, `dy`); the line's own box stays. Through each run's buffer:
    /// a subscript chain per glyph checked three arrays' uniqueness a glyph.
    package mutating func moveGlyphs(dx: Double, dy: Double) {
        for r in runs.indices {
            runs[r].glyphs.withUnsafeMutableBufferPointer { glyphs in
                for g in glyphs.indices {
                    glyphs[g].x += dx
                    glyphs[g].y += dy
                }
            }
        }
    }

    /// True when the line shows nothing (empty or whitespace only).
    package var isBlank: Bool { runs.allSatisfy { $0.glyphs.isEmpty } || width <= 0 }
}

package struct Layout: Sendable {
    package var text: String
    package var lines: [Line]
    package var fonts: [FontFace]
    /// Font size in pixels.
    package var size: Double
    /// The block: wrap width when given, else the widest line; height of all lines.
    package var width: Double
    package var height: Double
    /// Combining marks dropped from the input as over `MarkLimit.marksPerBase` on one base.
    package var droppedMarks: Int = 0
    /// With `maxLines`: the UTF-8 offset in the input where the text was cut (the ellipsis
    /// follows it in `text`); nil when nothing was cut.
    package var truncatedAt: Int?
    /// Variable-font axis values the glyphs were shaped with ("wght=650"): drawing uses them too.
    package var variations = ""
    /// The caller's tagged ranges (`TypesetStyle.tags`) and the shaping spans, as bytes of `text`.
    package var spans: [TaggedRange] = []
    package var styleRuns: [StyledRange] = []
}

extension Layout {
    /// Lines from layouts of one text (same size, width and variations) as one block, each
    /// piece's lines moved down by its `dy` (a page's share of a long text laid out in pieces:
    /// the piece's place in the text less the page's top). Font indices are remapped into one
    /// font list; byte ranges and paragraphs keep their meaning.
    package static func joined(_ pieces: [(layout: Layout, lines: Range<Int>, dy: Double)]) -> Layout {
        precondition(!pieces.isEmpty, "a joined layout needs at least one piece")
        var out = pieces[0].layout
        out.lines = []
        out.fonts = []
        out.truncatedAt = pieces.last!.layout.truncatedAt
        // Pieces of one text: a range that spans two pieces is in both, and comes out once.
        // Only ranges that reach the joined lines' bytes: a page of a long text would otherwise
        // carry (and sort, page after page) every span of the chunks it comes from.
        let ends = pieces.filter { !$0.lines.isEmpty }.map { ($0.layout.lines[$0.lines.lowerBound].start, $0.layout.lines[$0.lines.upperBound - 1].end) }
        let (low, high) = (ends.map(\.0).min() ?? 0, ends.map(\.1).max() ?? 0)
        out.spans = Array(Set(pieces.flatMap { $0.layout.spans.filter { $0.start < high && $0.end > low } }))
            .sorted { ($0.start, $0.end, $0.tag) < ($1.start, $1.end, $1.tag) }
        out.styleRuns = Array(Set(pieces.flatMap { $0.layout.styleRuns.filter { $0.start < high && $0.end > low } }))
            .sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var fontIndex: [FontFace: Int] = [:]
        for (layout, range, dy) in pieces {
            let map = layout.fonts.map { face in
                if let index = fontIndex[face] { return index }
                out.fonts.append(face)
                fontIndex[face] = out.fonts.count - 1
                return out.fonts.count - 1
            }
            for var line in layout.lines[range] {
                line.top += dy
                line.baseline += dy
                for r in line.runs.indices { line.runs[r].font = map[line.runs[r].font] }
                line.moveGlyphs(dx: 0, dy: dy)
                out.lines.append(line)
            }
        }
        out.height = out.lines.last.map(\.bottom) ?? 0
        return out
    }

    /// The same layout as part of a longer text: its bytes start at `byteOffset` in `text` and
    /// its paragraphs are numbered from `paragraphOffset` (its y stays; `joined` moves it).
    package func placed(in text: String, byteOffset: Int, paragraphOffset: Int) -> Layout {
        var out = self
        out.text = text
        out.truncatedAt = truncatedAt.map { $0 + byteOffset }
        out.spans = spans.shifted(by: byteOffset)
        out.styleRuns = styleRuns.shifted(by: byteOffset)
        for i in out.lines.indices {
            out.lines[i].start += byteOffset
            out.lines[i].end += byteOffset
            out.lines[i].paragraph += paragraphOffset
            for r in out.lines[i].runs.indices {
                out.lines[i].runs[r].start += byteOffset
                out.lines[i].runs[r].end += byteOffset
                for g in out.lines[i].runs[r].glyphs.indices { out.lines[i].runs[r].glyphs[g].cluster += byteOffset }
            }
        }
        return out
    }
}
