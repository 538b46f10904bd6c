import Highlight
import Render
import Steps
import Typeset

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
    public var text: String?
    public var textFile: String?
    public var font: String = FontSpec.defaultFamily
    public var size: Double?
    public var width: Double?
    public var align: Alignment?
    public var lineSpacing = 1.0
    public var direction: BaseDirection = .auto
    public var lang = ""
    public var breakHyphens = true
    public var maxLines: Int?
    public var ellipsis = "…"
    public var wrap = WrapMode.greedy
    public var hyphenate = false
    public var hyphenMin = (left: 2, right: 3)
    public var lineHeight: Length?
    public var letterSpacing = Length.px(0)
    public var wordSpacing = Length.px(0)
    public var features = FontFeatures.none
    public var variations = FontVariations.none
    public var color: Color?

    /// These settings' typographic extras on a style at its size.
    public func typography(_ style: inout TypesetStyle) {
        style.breakHyphens = breakHyphens
        style.wrap = wrap
        style.hyphenate = hyphenate
        style.hyphenMin = hyphenMin
        style.maxLines = maxLines
        style.ellipsis = ellipsis
        style.lineHeight = lineHeight?.resolved(fontSize: style.size)
        style.letterSpacing = letterSpacing.resolved(fontSize: style.size)
        style.wordSpacing = wordSpacing.resolved(fontSize: style.size)
        style.features = features
        style.variations = variations
    }
    // Highlight.
    public var highlight: Color?
    public var highlightStyle: HighlightMode?
    public var outlineColor: Color?
    public var outlineWidth = 2.0
    public var padding: [Length]?
    public var radius: CornerRadius = .auto
    public var join: Join = .merged
    // Effects.
    public var shadow: TextShadow?
    public var stroke: TextStroke?
    // Restricted content.
    public var visibleLines: Int?
    public var blurRadius: Double?
    public var restrictMode: RestrictMode?
    public var feather: Double?
    public var scrambleSeed: UInt64?
    // Steps.
    public var steps: [String]?
    public var stepsFile: String?
    public var column: Double?
    public var dotSize: Double?
    public var dotColor: Color?
    public var gap: Double?
    public var current: Int?
    public var connector = false
    public var firstSide: Side?

    public init() {}

    /// The font size: `size`, else the size in the font description, else 48.
    public func fontSize(spec: FontSpec) throws -> Double {
        let value = size ?? spec.size ?? 48
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
