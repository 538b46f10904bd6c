/// Underline kinds, as Pango names them.
public enum UnderlineStyle: String, CaseIterable, Sendable {
    /// `low`: below the descenders; `error`: a wavy line.
    case none, single, double, low, error
}

/// How a stretch of a text block is painted differently from the block (`Layout.spans` tag
/// it by index into `TextPaint.spans`): unset fields leave the block's paint.
public struct SpanPaint: Sendable {
    public var color: Color?
    public var underline: UnderlineStyle?
    public var underlineColor: Color?
    public var strikethrough: Bool?
    public var strikethroughColor: Color?
    /// The span's own rounded shape behind its text (joined across its lines).
    public var highlight: HighlightPaint?
    /// A PDF link annotation over the span's text.
    public var link: LinkTarget?

    public init(color: Color? = nil, underline: UnderlineStyle? = nil, underlineColor: Color? = nil, strikethrough: Bool? = nil,
                strikethroughColor: Color? = nil, highlight: HighlightPaint? = nil, link: LinkTarget? = nil) {
        (self.color, self.underline, self.underlineColor, self.strikethrough, self.strikethroughColor) =
            (color, underline, underlineColor, strikethrough, strikethroughColor)
        (self.highlight, self.link) = (highlight, link)
    }
}
