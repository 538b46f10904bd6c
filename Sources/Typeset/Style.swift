import Support

package enum Alignment: String, CaseIterable, Sendable {
    /// `justify` stretches every line but a paragraph's last to the block's width (the last is
    /// aligned to the start).
    case left, center, right, start, end, justify
}

/// How lines are filled: greedy, balanced (near-equal lines) or pretty (no one-word last line).
package enum WrapMode: String, CaseIterable, Sendable {
    case greedy, balance, pretty
}

package enum BaseDirection: String, CaseIterable, Sendable {
    /// From the first strong character of each paragraph (UAX #9 P2/P3), LTR when none.
    case auto, ltr, rtl

    /// The shim's paragraph level: -1 picks it from the text.
    var icuBase: Int32 { switch self { case .auto: -1; case .ltr: 0; case .rtl: 1 } }
}

/// What the typesetter needs to know besides the text and the fonts.
package struct TypesetStyle: Sendable {
    package var size: Double
    /// Wrap width in pixels; nil means lines break only at hard breaks.
    package var width: Double?
    package var alignment: Alignment
    /// Baseline-to-baseline distance as a multiple of the line's natural height.
    package var lineSpacing: Double
    /// No line is further from the next than this many natural line heights.
    package static let maxLineSpacing = 1000.0
    package var direction: BaseDirection
    /// BCP 47 language for shaping and line breaking (empty: none).
    package var language: String
    /// A word longer than the line is cut with a hyphen (in scripts that hyphenate).
    package var breakHyphens = true
    package var wrap = WrapMode.greedy
    /// Dictionary hyphenation in `language` (when a dictionary is installed), with at least
    /// `hyphenMin.left` characters before a break and `hyphenMin.right` after it.
    package var hyphenate = false
    package var hyphenMin = (left: 2, right: 3)
    /// Stop after this many lines, the last ending with `ellipsis`.
    package var maxLines: Int?
    package var ellipsis = "…"
    /// A fixed baseline-to-baseline distance in px, whatever fonts a line falls back to.
    package var lineHeight: Double?
    /// Lines as tall as their span styles' own fonts make them, not the fallback fonts a line
    /// reaches for: a line of Arabic, CJK or emoji in a Latin text keeps the text's pitch, a
    /// larger span still makes its line taller (pages use it). `lineHeight` wins.
    package var evenPitch = false
    /// Tracking after every grapheme cluster (not in cursive scripts), and extra space after
    /// every space, in px.
    package var letterSpacing = 0.0
    package var wordSpacing = 0.0
    /// Extra space after each paragraph (a hard break ends one), and the first line of each
    /// paragraph indented on its start side, in px.
    package var paragraphSpacing = 0.0
    package var indent = 0.0
    /// OpenType features for every run; with letter spacing, optional ligatures are off first
    /// (as browsers do), unless these turn them back on.
    package var features = FontFeatures.none
    /// Variable-font axis values for every font that has those axes.
    package var variations = FontVariations.none
    /// Stretches shaped otherwise (their own font, size, spacing...), sorted and apart, as
    /// UTF-8 bytes of the text; and the caller's tagged ranges, kept for `Layout.spans`.
    package var runs: [StyledRange] = []
    package var tags: [TaggedRange] = []
    /// Paragraphs laid out with their own inset, first line and space above (sorted, apart).
    package var paragraphFormats: [ParagraphFormat] = []
    /// Checked between paragraphs: a cancelled layout throws `Cancellation.Cancelled`.
    package var cancellation: Cancellation?

    package init(size: Double = 48, width: Double? = nil, alignment: Alignment = .start,
                lineSpacing: Double = 1, direction: BaseDirection = .auto, language: String = "") {
        self.size = size
        self.width = width
        self.alignment = alignment
        self.lineSpacing = lineSpacing
        self.direction = direction
        self.language = language
    }

    /// Font sizes outside this range are refused (HarfBuzz scales are 32-bit, and a glyph
    /// smaller than a hundredth of a pixel measures as nothing).
    package static let sizeRange = 0.01...10_000.0

    package func validated() throws -> TypesetStyle {
        guard size.isFinite, size > 0 else { throw TypesetError.invalidNumber("size", size) }
        guard TypesetStyle.sizeRange.contains(size) else {
            throw TypesetError.outOfRange("size", size, TypesetStyle.sizeRange)
        }
        if let width, !(width.isFinite && width > 0) { throw TypesetError.invalidNumber("width", width) }
        if let width { _ = try Checked.length(width, "width") }
        _ = try Checked.int(hyphenMin.left, "hyphen-min left", in: 1...20)
        _ = try Checked.int(hyphenMin.right, "hyphen-min right", in: 1...20)
        if let lineHeight { _ = try Checked.length(lineHeight, "line height") }
        guard lineSpacing.isFinite, lineSpacing > 0 else {
            throw TypesetError.invalidNumber("line spacing", lineSpacing)
        }
        _ = try Checked.number(lineSpacing, "line spacing", in: 0...TypesetStyle.maxLineSpacing)
        if let maxLines, maxLines < 1 { throw TypesetError.invalidNumber("max lines", Double(maxLines)) }
        if let lineHeight, !(lineHeight.isFinite && lineHeight > 0) { throw TypesetError.invalidNumber("line height", lineHeight) }
        _ = try Checked.number(paragraphSpacing, "paragraph spacing", in: 0...Checked.maxLength)
        _ = try Checked.number(indent, "indent", in: 0...Checked.maxLength)
        guard letterSpacing.isFinite, wordSpacing.isFinite, abs(letterSpacing) < 1e5, abs(wordSpacing) < 1e5 else {
            throw TypesetError.invalidNumber("letter or word spacing", letterSpacing.isFinite ? wordSpacing : letterSpacing)
        }
        _ = try LanguageTags.checked(language)
        return self
    }
}
