import CCairo
import Highlight
import Typeset

/// How the highlight looks: geometry style plus paint. Fill and stroke are each optional
/// (fill, outline, or both).
package struct HighlightPaint: Sendable {
    package var style: HighlightStyle
    package var fill: Color?
    package var stroke: Color?
    package var strokeWidth: Double

    package init(style: HighlightStyle, fill: Color?, stroke: Color? = nil, strokeWidth: Double = 2) {
        self.style = style
        self.fill = fill
        self.stroke = stroke
        self.strokeWidth = strokeWidth
    }

    /// How far the highlight reaches past the text's line boxes: its padding and, when it is
    /// stroked, half the stroke. Whatever holds the text leaves this much room around it.
    package var reach: (x: Double, y: Double) {
        let half = stroke == nil ? 0 : strokeWidth / 2
        return (style.paddingX + half, style.paddingY + half)
    }
}

extension Layout {
    /// The line boxes as the highlight sees them.
    package var highlightBoxes: [LineBox] {
        lines.map { LineBox(x: $0.x, top: $0.top, width: $0.width, height: $0.height, blank: $0.isBlank) }
    }

    package func highlightOutline(_ style: HighlightStyle) -> Outline {
        OutlineBuilder.outline(highlightBoxes, style: style)
    }
}

/// Draws an outline with Cairo: all contours in one path, filled once (no seams, no double
/// alpha where blocks touch) and stroked once (only the outer contour, no lines between rows).
enum HighlightPainter {
    static func draw(_ cr: OpaquePointer, outline: Outline, paint: HighlightPaint) {
        guard !outline.contours.isEmpty else { return }
        cairo_save(cr)
        cairo_new_path(cr)
        for contour in outline.contours { addPath(cr, contour) }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GRAY)
        if let fill = paint.fill {
            fill.setSource(cr)
            cairo_fill_preserve(cr)
        }
        if let stroke = paint.stroke, paint.strokeWidth > 0 {
            stroke.setSource(cr)
            cairo_set_line_width(cr, paint.strokeWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke_preserve(cr)
        }
        cairo_new_path(cr)
        cairo_restore(cr)
    }

    private static func addPath(_ cr: OpaquePointer, _ contour: Contour) {
        cairo_move_to(cr, contour.start.x, contour.start.y)
        var from = contour.start
        for segment in contour.segments {
            switch segment {
            case let .line(to):
                cairo_line_to(cr, to.x, to.y)
            case let .arc(to, center, radius, clockwise):
                let a0 = Segment.angle(of: from, around: center), a1 = Segment.angle(of: to, around: center)
                // Cairo's angles grow clockwise on screen (y down), like our `clockwise`.
                if clockwise {
                    cairo_arc(cr, center.x, center.y, radius, a0, a1)
                } else {
                    cairo_arc_negative(cr, center.x, center.y, radius, a0, a1)
                }
            }
            from = segment.end
        }
        cairo_close_path(cr)
    }
}

