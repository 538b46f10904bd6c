import CCairo
import Highlight
import Support
import Typeset

/// What spans add around the glyphs: their highlights (under the text, over the block's own),
/// underlines and strikethroughs (over it), and PDF links.
struct SpanPainter {
    var layout: Layout
    var paint: TextPaint
    var paints: GlyphPaints
    /// Checked every `checkEvery` spans: their number grows with the input, not the canvas.
    var cancellation: Cancellation?
    /// The highlighted spans (bytes and paint), in span order: found once, so a painter made
    /// once can draw many pieces of a text (an animation's frames) without a walk of every span.
    let highlighted: [(Int, Int, HighlightPaint)]
    static let checkEvery = 256

    init(layout: Layout, paint: TextPaint, cancellation: Cancellation? = nil) {
        self.layout = layout
        self.paint = paint
        self.cancellation = cancellation
        paints = GlyphPaints(layout, paint.spans)
        highlighted = layout.spans.compactMap { tag in
            guard tag.tag < paint.spans.count, let highlight = paint.spans[tag.tag].highlight else { return nil }
            return (tag.start, tag.end, highlight)
        }
    }

    /// Each highlighted span's outline over `lines`, drawn in span order (an inner span's on top).
    func drawHighlights(_ cr: OpaquePointer, lines: [Line]) throws {
        for (k, (start, end, highlight)) in highlighted.enumerated() {
            if k % Self.checkEvery == 0 { try cancellation.check() }
            let touched = lines.overlapping(start, end)
            guard !touched.isEmpty else { continue }
            HighlightPainter.draw(cr, outline: layout.spanOutline(start, end, lines: Array(touched), style: highlight.style), paint: highlight)
        }
    }

    /// Underlines and strikethroughs at the font's positions and thicknesses, one bar per
    /// stretch of glyphs of one run with the same line.
    func drawLines(_ cr: OpaquePointer, lines: [Line]) {
        guard !paints.isEmpty else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        for line in lines {
            for run in line.runs where !run.glyphs.isEmpty {
                let glyphPaints = paints.paints(of: run)
                for stretch in glyphPaints.stretches(sameLines) {
                    guard let p = glyphPaints[stretch.lowerBound] else { continue }
                    let x0 = run.glyphs[stretch.lowerBound].x
                    let x1 = run.glyphs[stretch.upperBound - 1].x + run.glyphs[stretch.upperBound - 1].advance
                    let baseline = line.baseline - run.metrics.rise
                    let color = p.color ?? paint.color
                    if let style = p.underline, style != .none {
                        underline(cr, style, x0: x0, x1: x1, baseline: baseline, metrics: run.metrics, color: p.underlineColor ?? color)
                    }
                    if p.strikethrough == true {
                        (p.strikethroughColor ?? color).setSource(cr)
                        let m = run.metrics
                        cairo_rectangle(cr, x0, baseline - m.strikeoutPosition - m.strikeoutThickness / 2, x1 - x0, m.strikeoutThickness)
                        cairo_fill(cr)
                    }
                }
            }
        }
    }

    private func sameLines(_ a: SpanPaint?, _ b: SpanPaint?) -> Bool {
        a?.underline == b?.underline && a?.underlineColor == b?.underlineColor && a?.strikethrough == b?.strikethrough
            && a?.strikethroughColor == b?.strikethroughColor && a?.color == b?.color
    }

    private func underline(_ cr: OpaquePointer, _ style: UnderlineStyle, x0: Double, x1: Double, baseline: Double,
                           metrics m: RunMetrics, color: Color) {
        color.setSource(cr)
        let t = m.underlineThickness
        let y = baseline - m.underlinePosition - t / 2
        switch style {
        case .none: return
        case .single: cairo_rectangle(cr, x0, y, x1 - x0, t)
        case .double:
            cairo_rectangle(cr, x0, y, x1 - x0, t)
            cairo_rectangle(cr, x0, y + 2 * t, x1 - x0, t)
        case .low: cairo_rectangle(cr, x0, baseline + m.descent - t, x1 - x0, t)
        case .error:
            wave(cr, x0: x0, x1: x1, y: y, thickness: t)
            return
        }
        cairo_fill(cr)
    }

    /// A wave of period 4t, as spell checkers draw it. Its points are bounded by what can reach
    /// the surface, not by the input: only the part inside the clip is drawn, and no segment is
    /// shorter than half a device pixel (a span 10^6 pt wide in a 0.01 px font would otherwise
    /// be 10^10 points).
    private func wave(_ cr: OpaquePointer, x0: Double, x1: Double, y: Double, thickness t: Double) {
        var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        var px = 1.0, py = 0.0
        cairo_device_to_user_distance(cr, &px, &py)
        let step = max(t * 2, abs(px) / 2)
        guard step.isFinite, step > 0, y - t < cy1, y + 2 * t > cy0 else { return }
        // Start on a whole period before the clip, so the visible part keeps its phase.
        let skipped = max(0, ((cx0 - step - x0) / (2 * step)).rounded(.down))
        var x = x0 + skipped * 2 * step
        let end = min(x1, cx1 + step)
        guard x < end else { return }
        cairo_set_line_width(cr, t)
        cairo_move_to(cr, x, y + t)
        var up = true
        while x < end {
            let next = min(x + step, end)
            cairo_line_to(cr, next, up ? y - t / 2 : y + t * 1.5)
            x = next
            up.toggle()
        }
        cairo_stroke(cr)
    }

    /// Link annotations over each linked span's pieces (PDF only: an image has nowhere to put
    /// them). The rectangles are given, so a link broken over two lines is two areas.
    func drawLinks(_ cr: OpaquePointer, lines: [Line]) throws {
        for (k, tag) in layout.spans.enumerated() where tag.tag < paint.spans.count {
            if k % Self.checkEvery == 0 { try cancellation.check() }
            guard let uri = paint.spans[tag.tag].link else { continue }
            var rects: [String] = []
            // The link's description: its text on the lines drawn (never a hidden line's).
            var text = ""
            let utf8 = layout.text.utf8
            for line in lines.overlapping(tag.start, tag.end) {
                let from = max(tag.start, line.start), to = min(tag.end, line.end)
                if from < to, to <= utf8.count {
                    let start = utf8.index(utf8.startIndex, offsetBy: from)
                    text += String(decoding: utf8[start..<utf8.index(start, offsetBy: to - from)], as: UTF8.self)
                }
                for piece in layout.spanPieces(tag.start, tag.end, on: line) {
                    rects.append([piece.x0, piece.top, piece.x1 - piece.x0, piece.bottom - piece.top].map { String(format3($0)) }.joined(separator: " "))
                }
            }
            guard !rects.isEmpty else { continue }
            // Percent-encoded: nothing in it can end Cairo's attribute string or the PDF string.
            let escaped = uri.pdfString
            // Cairo 1.16 writes a link's structure element only inside a structure tree: a link
            // outside any tag refers to an object the file never holds (qpdf: damaged).
            // A tagged document has its Document open already: the link is the text block's child.
            let own = !Canvas.isDocumentOpen(cr)
            Canvas.noteLink(cr, text: text)
            if own { cairo_tag_begin(cr, "Document", "") }
            cairo_tag_begin(cr, CAIRO_TAG_LINK, "uri='\(escaped)' rect=[\(rects.joined(separator: " "))]")
            cairo_tag_end(cr, CAIRO_TAG_LINK)
            if own { cairo_tag_end(cr, "Document") }
        }
    }

    private func format3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
