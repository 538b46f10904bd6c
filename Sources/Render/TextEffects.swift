import CCairo
import Support
import Typeset

/// Text shadows: the glyphs in the shadow colour on a padded image surface, blurred with the
/// box-blur kernel, painted under the text at the offset (an image in a PDF too).
enum TextEffects {
    static func drawShadow(_ cr: OpaquePointer, _ layout: Layout, lines: [Line], faces: FontFaces, shadow: TextShadow,
                           scale: Double) throws {
        guard shadow.color.alpha > 0, !lines.isEmpty else { return }
        let sigma = shadow.blur.value * scale
        // Glyph ink may reach past the line boxes (accents, descenders, italics): one em of margin.
        let margin = layout.size
        let reach = Double(BoxBlur.reach(sigma: sigma) + 1) / scale
        let pad = reach + margin
        var top = lines.map(\.top).min()! - pad, bottom = lines.map(\.bottom).max()! + pad
        var left = -pad, right = max(layout.width, lines.map { $0.x + $0.width }.max()!) + pad
        // Only the part that can reach the canvas is drawn: the clip (the canvas, in user units)
        // grown by the blur's reach, so a glyph far larger than the card costs no more than
        // the card. Cut on the layer's own pixel grid, so the pixels that remain are the same.
        var clip = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0)
        cairo_clip_extents(cr, &clip.x1, &clip.y1, &clip.x2, &clip.y2)
        let snap = { (from: Double, to: Double) in from + ((to - from) * scale).rounded(.down) / scale }
        if clip.x1 - shadow.dx - reach > left { left = snap(left, clip.x1 - shadow.dx - reach) }
        if clip.y1 - shadow.dy - reach > top { top = snap(top, clip.y1 - shadow.dy - reach) }
        right = min(right, clip.x2 - shadow.dx + reach)
        bottom = min(bottom, clip.y2 - shadow.dy + reach)
        guard right > left, bottom > top else { return }
        // Checked: a layout as wide as the largest wrap width must be refused, not trap.
        let width = try Checked.int(((right - left) * scale).rounded(.up), "shadow width", in: 1...OutputFormat.png.maxSide)
        let height = try Checked.int(((bottom - top) * scale).rounded(.up), "shadow height", in: 1...OutputFormat.png.maxSide)
        let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(layer) }
        try Cairo.check(surface: layer, "creating the shadow surface")
        let lc = cairo_create(layer)!
        cairo_scale(lc, scale, scale)
        cairo_translate(lc, -left, -top)
        try TextPainter(layout: layout, faces: faces, textLayer: false).draw(lc, lines: lines, color: shadow.color)
        cairo_destroy(lc)
        cairo_surface_flush(layer)
        if sigma > 0 {
            BoxBlur.blur(cairo_image_surface_get_data(layer), width: width, height: height,
                         stride: Int(cairo_image_surface_get_stride(layer)), sigma: sigma)
            cairo_surface_mark_dirty(layer)
        }
        cairo_save(cr)
        cairo_translate(cr, left + shadow.dx, top + shadow.dy)
        cairo_scale(cr, 1 / scale, 1 / scale)
        cairo_set_source_surface(cr, layer, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
