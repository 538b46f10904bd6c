import Motion
/// Underline kinds, as Pango names them.
package enum UnderlineStyle: String, CaseIterable, Sendable {
    /// `low`: below the descenders; `error`: a wavy line.
    case none, single, double, low, error
}

/// How a stretch of a text block is painted differently from the block (`Layout.spans` tag
/// it by index into `TextPaint.spans`): unset fields leave the block's paint.
package struct SpanPaint: Sendable {
    package var color: Color?
    package var underline: UnderlineStyle?
    package var underlineColor: Color?
    package var strikethrough: Bool?
    package var strikethroughColor: Color?
    /// The span's own rounded shape behind its text (joined across its lines).
    package var highlight: HighlightPaint?
    /// A PDF link annotation over the span's text.
    package var link: LinkTarget?
    /// The span's effects in an animated card (drawn by `MotionPainter`; a still render
    /// ignores them).
    package var animation: [EffectSpec] = []

    package init(color: Color? = nil, underline: UnderlineStyle? = nil, underlineColor: Color? = nil, strikethrough: Bool? = nil,
                strikethroughColor: Color? = nil, highlight: HighlightPaint? = nil, link: LinkTarget? = nil) {
        (self.color, self.underline, self.underlineColor, self.strikethrough, self.strikethroughColor) =
            (color, underline, underlineColor, strikethrough, strikethroughColor)
        (self.highlight, self.link) = (highlight, link)
    }
}
