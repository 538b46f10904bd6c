import Highlight
import Render
import Steps
import Typeset
import Support

/// Hidden lines are drawn with substitute glyphs before the blur (scramble), or keep their
/// real glyphs under the blur (blur: not for secrets).
public enum RestrictMode: String, CaseIterable, Sendable {
    case scramble, blur
}

public enum HighlightMode: String, CaseIterable, Sendable {
    case fill, outline, both, none
}

/// Everything a text or steps block can be told, each with its default: the values behind the
/// options of `OptionModel` (which are `hlrender render`'s and `steps`'s long option names).
public struct BlockSettings: Sendable {
    // Text and font.
    public internal(set) var text: String?
    public internal(set) var textFile: String?
    public internal(set) var font: String = FontSpec.defaultFamily
    public internal(set) var size: Double?
    public internal(set) var width: Double?
    public internal(set) var align: Alignment?
    public internal(set) var lineSpacing = 1.0
    public internal(set) var direction: BaseDirection = .auto
    public internal(set) var lang = ""
    public internal(set) var breakHyphens = true
    public internal(set) var maxLines: Int?
    public internal(set) var ellipsis = "…"
    /// nil: greedy, or balance for a fitted block (see `measureText`).
    public internal(set) var wrap: WrapMode?
    public internal(set) var hyphenate = false
    public internal(set) var hyphenMin = (left: 2, right: 3)
    public internal(set) var lineHeight: Length?
    public internal(set) var letterSpacing = Length.px(0)
    public internal(set) var wordSpacing = Length.px(0)
    public internal(set) var paragraphSpacing = Length.px(0)
    public internal(set) var indent = Length.px(0)
    public internal(set) var features = FontFeatures.none
    public internal(set) var variations = FontVariations.none
    public internal(set) var color: Color?
    // Rich text: markup or spans instead of text, and what a span (or a block) styles.
    public internal(set) var markup: String?
    public internal(set) var markupFile: String?
    public internal(set) var spans: [SpanInput]?
    public internal(set) var stepsMarkup = false
    /// CSS weight (400 normal, 700 bold) and style, over the font description's.
    public internal(set) var weight: Int?
    public internal(set) var slant: FontSlant?
    public internal(set) var fontFamily: String?
    public internal(set) var fontScale: Double?
    public internal(set) var baselineShift: BaselineShift?
    public internal(set) var underline: UnderlineStyle?
    public internal(set) var underlineColor: Color?
    public internal(set) var strikethrough: Bool?
    public internal(set) var strikethroughColor: Color?
    public internal(set) var link: LinkTarget?

    /// Whether the block has text of its own (plain, markup or spans).
    public var hasText: Bool { text != nil || textFile != nil || markup != nil || markupFile != nil || spans != nil }

    /// These settings' typographic extras on a style at its size.
    public func typography(_ style: inout TypesetStyle) {
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
    public internal(set) var highlight: Color?
    public internal(set) var highlightStyle: HighlightMode?
    public internal(set) var outlineColor: Color?
    public internal(set) var outlineWidth = 2.0
    public internal(set) var padding: [Length]?
    public internal(set) var radius: CornerRadius = .auto
    public internal(set) var join: Join = .merged
    // Effects.
    public internal(set) var shadow: TextShadow?
    public internal(set) var stroke: TextStroke?
    // Restricted content.
    public internal(set) var visibleLines: Int?
    public internal(set) var blurRadius: Double?
    public internal(set) var restrictMode: RestrictMode?
    public internal(set) var feather: Double?
    public internal(set) var scrambleSeed: UInt64?
    // Steps.
    public internal(set) var steps: [String]?
    public internal(set) var stepsFile: String?
    public internal(set) var column: Double?
    public internal(set) var dotSize: Double?
    public internal(set) var dotColor: Color?
    public internal(set) var gap: Double?
    public internal(set) var current: Int?
    public internal(set) var connector = false
    public internal(set) var firstSide: Side?

    public init() {}

    /// The font size: `size`, else the size in the font description, else 48.
    /// `fallback`: the size when neither the block nor its font names one (48 px on a card;
    /// pages pass a body size, as a 48 pt text on A4 is a poster).
    public func fontSize(spec: FontSpec, fallback: Double = 48) throws -> Double {
        let value = size ?? spec.size ?? fallback
        guard TypesetStyle.sizeRange.contains(value) else {
            throw OptionError("size must be between \(TypesetStyle.sizeRange.lowerBound) and \(Int(TypesetStyle.sizeRange.upperBound)) px, got \(value)")
        }
        return value
    }

    /// The highlight, or nil when none is wanted. Without `highlight-style` the colours given
    /// decide: `highlight` fills, `outline-color` outlines, both give both.
    public func highlightPaint(fontSize: Double) -> HighlightPaint? {
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
    public var fillsHighlight: Bool { highlightPaint(fontSize: 1)?.fill != nil }

    /// `color`, else black or white by contrast with the highlight (over the background), else
    /// black or white by contrast with the background.
    public func textColor(highlight: HighlightPaint?, background: Color) -> Color {
        if let color { return color }
        if let fill = highlight?.fill { return contrasting(fill, over: background) }
        return background.alpha > 0 ? contrasting(background, over: .white) : .black
    }

    public func restriction() throws -> Restriction? {
        try visibleLines.map { try Restriction(visibleLines: $0, sigma: blurRadius ?? 11, feather: feather ?? 4) }
    }
}

/// Black or white, whichever has the higher WCAG contrast on `color` as it shows over `base`.
public func contrasting(_ color: Color, over base: Color) -> Color {
    let ground = base.alpha > 0 ? base.over(.white) : .white
    let shown = color.over(ground)
    return Color.black.contrast(with: shown) >= Color.white.contrast(with: shown) ? .black : .white
}
