import Highlight
import Motion
import Render
import Steps
import Typeset
import Support

/// Hidden lines are drawn with substitute glyphs before the blur (scramble), or keep their
/// real glyphs under the blur (blur: not for secrets).
package enum RestrictMode: String, CaseIterable, Sendable {
    case scramble, blur
}

package enum HighlightMode: String, CaseIterable, Sendable {
    case fill, outline, both, none
}

/// Everything a text or steps block can be told, each with its default: the values behind the
/// options of `OptionModel` (which are `hlrender render`'s and `steps`'s long option names).
package struct BlockSettings: Sendable {
    // Text and font.
    package internal(set) var text: String?
    package internal(set) var textFile: String?
    package internal(set) var font: String = FontSpec.defaultFamily
    package internal(set) var size: Double?
    package internal(set) var width: Double?
    package internal(set) var align: Alignment?
    package internal(set) var lineSpacing = 1.0
    package internal(set) var direction: BaseDirection = .auto
    package internal(set) var lang = ""
    /// The block's element in a tagged PDF: a paragraph or a heading.
    package internal(set) var role = StructureRole.p
    package internal(set) var breakHyphens = true
    package internal(set) var maxLines: Int?
    package internal(set) var ellipsis = "…"
    /// nil: greedy, or balance for a fitted block (see `measureText`).
    package internal(set) var wrap: WrapMode?
    package internal(set) var hyphenate = false
    package internal(set) var hyphenMin = (left: 2, right: 3)
    package internal(set) var lineHeight: Length?
    package internal(set) var letterSpacing = Length.px(0)
    package internal(set) var wordSpacing = Length.px(0)
    package internal(set) var paragraphSpacing = Length.px(0)
    package internal(set) var indent = Length.px(0)
    package internal(set) var features = FontFeatures.none
    package internal(set) var variations = FontVariations.none
    package internal(set) var color: Color?
    // Rich text: markup or spans instead of text, and what a span (or a block) styles.
    package internal(set) var markup: String?
    package internal(set) var markupFile: String?
    package internal(set) var markdown: String?
    package internal(set) var markdownFile: String?
    package internal(set) var spans: [SpanInput]?
    package internal(set) var stepsMarkup = false
    /// CSS weight (400 normal, 700 bold) and style, over the font description's.
    package internal(set) var weight: Int?
    package internal(set) var slant: FontSlant?
    /// Font width in percent of normal (Fontconfig's width), over the font description's.
    package internal(set) var stretch: Int?
    package internal(set) var fontFamily: String?
    package internal(set) var fontScale: Double?
    package internal(set) var baselineShift: BaselineShift?
    package internal(set) var underline: UnderlineStyle?
    package internal(set) var underlineColor: Color?
    package internal(set) var strikethrough: Bool?
    package internal(set) var strikethroughColor: Color?
    package internal(set) var link: LinkTarget?
    /// A span's own effects in an animated card (a block's are its `BlockSpec.animation`).
    package internal(set) var animation: [EffectSpec] = []
    /// The schemes `link` and markup's `href` may use: not an option (a card cannot widen its
    /// own links) but the run's policy, set before any option is applied and handed to the
    /// spans and markup read inside the block.
    package var linkSchemes = LinkSchemes()

    /// Whether the block has text of its own (plain, markup or spans).
    package var hasText: Bool {
        text != nil || textFile != nil || markup != nil || markupFile != nil || markdown != nil || markdownFile != nil || spans != nil
    }

    /// These settings' typographic extras on a style at its size.
    package func typography(_ style: inout TypesetStyle) {
        style.breakHyphens = breakHyphens
        style.wrap = wrap ?? .greedy
        style.hyphenate = hyphenate
        style.hyphenMin = hyphenMin
        style.maxLines = maxLines
        style.ellipsis = ellipsis
        style.lineHeight = lineHeight?.resolved(fontSize: style.size)
        style.letterSpacing = letterSpacing.resolved(fontSize: style.size)
        style.wordSpacing = wordSpacing.resolved(fontSize: style.size)
        style.paragraphSpacing = paragraphSpacing.resolved(fontSize: style.size)
        style.indent = indent.resolved(fontSize: style.size)
        style.features = features
        style.variations = variations
    }
    // Highlight.
    package internal(set) var highlight: Color?
    package internal(set) var highlightStyle: HighlightMode?
    package internal(set) var outlineColor: Color?
    package internal(set) var outlineWidth = 2.0
    package internal(set) var padding: [Length]?
    package internal(set) var radius: CornerRadius = .auto
    package internal(set) var join: Join = .merged
    // Effects.
    package internal(set) var shadow: TextShadow?
    package internal(set) var stroke: TextStroke?
    // Restricted content.
    package internal(set) var visibleLines: Int?
    package internal(set) var blurRadius: Double?
    package internal(set) var restrictMode: RestrictMode?
    package internal(set) var feather: Double?
    package internal(set) var scrambleSeed: UInt64?
    // Steps.
    package internal(set) var steps: [String]?
    package internal(set) var stepsFile: String?
    package internal(set) var column: Double?
    package internal(set) var dotSize: Double?
    package internal(set) var dotColor: Color?
    package internal(set) var gap: Double?
    package internal(set) var current: Int?
    package internal(set) var connector = false
    package internal(set) var firstSide: Side?

    package init() {}

    /// The font size: `size`, else the size in the font description, else 48.
    /// `fallback`: the size when neither the block nor its font names one (48 px on a card;
    /// pages pass a body size, as a 48 pt text on A4 is a poster).
    package func fontSize(spec: FontSpec, fallback: Double = 48) throws -> Double {
        let value = size ?? spec.size ?? fallback
        guard TypesetStyle.sizeRange.contains(value) else {
            throw OptionError("size must be between \(TypesetStyle.sizeRange.lowerBound) and \(Int(TypesetStyle.sizeRange.upperBound)) px, got \(value)")
        }
        return value
    }

    /// The highlight, or nil when none is wanted. Without `highlight-style` the colours given
    /// decide: `highlight` fills, `outline-color` outlines, both give both.
    package func highlightPaint(fontSize: Double) -> HighlightPaint? {
        let mode = highlightStyle ?? (highlight != nil ? (outlineColor != nil ? .both : .fill)
                                                       : (outlineColor != nil ? .outline : .none))
        if mode == .none { return nil }
        let stroke = outlineColor ?? highlight ?? .black
        let pad = padding ?? [.em(0.3), .em(0.08)]
        let padX = pad[0].resolved(fontSize: fontSize), padY = pad[pad.count > 1 ? 1 : 0].resolved(fontSize: fontSize)
        return HighlightPaint(style: HighlightStyle(paddingX: padX, paddingY: padY, radius: radius, join: join),
                              fill: mode == .outline ? nil : highlight ?? .white,
                              stroke: mode == .fill ? nil : stroke, strokeWidth: outlineWidth)
    }

    /// Whether a highlight is filled (a fitted canvas under it defaults to transparent).
    package var fillsHighlight: Bool { highlightPaint(fontSize: 1)?.fill != nil }

    /// `color`, else black or white by contrast with the highlight (over the background), else
    /// black or white by contrast with the background.
    package func textColor(highlight: HighlightPaint?, background: Color) -> Color {
        if let color { return color }
        if let fill = highlight?.fill { return contrasting(fill, over: background) }
        return background.alpha > 0 ? contrasting(background, over: .white) : .black
    }

    /// How the block's text is painted over `background`: its colour (`textColor`), highlight,
    /// shadow and stroke, and the spans' own paints. Cards, steps and pages all paint this way.
    package func textPaint(highlight: HighlightPaint?, background: Color, spans: [SpanPaint] = []) -> TextPaint {
        var paint = TextPaint(color: textColor(highlight: highlight, background: background), highlight: highlight,
                              shadow: shadow, stroke: stroke)
        paint.spans = spans
        return paint
    }

    package func restriction() throws -> Restriction? {
        try visibleLines.map { try Restriction(visibleLines: $0, sigma: blurRadius ?? 11, feather: feather ?? 4) }
    }
}

/// Black or white, whichever has the higher WCAG contrast on `color` as it shows over `base`.
package func contrasting(_ color: Color, over base: Color) -> Color {
    let ground = base.alpha > 0 ? base.over(.white) : .white
    let shown = color.over(ground)
    return Color.black.contrast(with: shown) >= Color.white.contrast(with: shown) ? .black : .white
}
