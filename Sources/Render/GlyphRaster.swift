import Support
import CCairo
import Typeset

/// What Cairo keeps of a glyph it draws: an image of it, at its size on the device, in a
/// process-wide cache of up to 16,384 glyphs that outlives the render. Unbounded, one emoji at
/// 10,000 px held 400 MB for good. Past `maxEm` device pixels a glyph is never rasterised
/// whole: an outline is filled as a path (as browsers do past 256 px), and a colour bitmap is
/// drawn once at `maxEm` into a small image that is painted scaled, clipped to the canvas.
/// Either way what a render holds is bounded by its canvas, not by the font size.
enum GlyphRaster {
    /// The largest em, in device pixels (or PDF points), Cairo rasterises and caches a glyph at.
    static let maxEm = 256.0

    /// Device pixels per user unit along x (the canvas scale, @2x and so on).
    static func deviceScale(_ cr: OpaquePointer) -> Double {
        var dx = 1.0, dy = 0.0
        cairo_user_to_device_distance(cr, &dx, &dy)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Glyphs Cairo 1.16 keeps in all (512 pages of 32, `MAX_GLYPH_PAGES_CACHED`): past it
    /// older ones are evicted, so a render never holds more.
    static let cachedGlyphLimit = 16_384

    static func isLarge(size: Double, scale: Double) -> Bool { size * scale > maxEm }

    /// The bytes Cairo's cache may hold for one glyph drawn at `size` (user units) and `scale`:
    /// its image at the size, or at `maxEm` past it, with room for ink outside the em box.
    static func cachedBytes(size: Double, scale: Double, color: Bool) -> Int {
        let em = min(max(size * scale, 1), maxEm) * 1.5
        return Int(em * em) * (color ? 4 : 1)
    }

    /// Colour bitmap glyphs of `run` drawn past `maxEm`: each distinct glyph rendered once at
    /// `maxEm` device pixels into its own small image, then painted at its place scaled up by
    /// the pattern (pixman samples only the pixels inside the clip).
    static func showScaledBitmaps(_ cr: OpaquePointer, run: GlyphRun, face: OpaquePointer, options: OpaquePointer?) {
        let scale = deviceScale(cr)
        guard scale > 0, scale.isFinite else { return }
        let em = maxEm / scale
        var fontMatrix = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_matrix_init_scale(&fontMatrix, maxEm, maxEm)
        if run.metrics.oblique { fontMatrix.xy = -0.2 * maxEm }
        cairo_matrix_init_identity(&identity)
        guard let font = cairo_scaled_font_create(face, &fontMatrix, &identity, options) else { return }
        defer { cairo_scaled_font_destroy(font) }
        var images: [UInt32: (surface: OpaquePointer, x: Double, y: Double, width: Double, height: Double)] = [:]
        defer { images.values.forEach { cairo_surface_destroy($0.surface) } }
        let factor = run.size / em / scale
        for glyph in run.glyphs {
            let image = images[glyph.id] ?? {
                var g = cairo_glyph_t(index: UInt(glyph.id), x: 0, y: 0), ext = cairo_text_extents_t()
                cairo_scaled_font_glyph_extents(font, &g, 1, &ext)
                let width = Checked.clamped(ext.width, .up, in: 0...Int(Int32.max) - 2) + 2, height = Checked.clamped(ext.height, .up, in: 0...Int(Int32.max) - 2) + 2
                guard ext.width > 0, ext.height > 0, width <= 4 * Int(maxEm), height <= 4 * Int(maxEm), let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
                    return nil
                }
                if let small = cairo_create(surface) {
                    cairo_set_scaled_font(small, font)
                    g.x = 1 - ext.x_bearing
                    g.y = 1 - ext.y_bearing
                    cairo_show_glyphs(small, &g, 1)
                    cairo_destroy(small)
                }
                let entry = (surface, ext.x_bearing - 1, ext.y_bearing - 1, Double(width), Double(height))
                images[glyph.id] = entry
                return entry
            }()
            guard let image else { continue }
            cairo_save(cr)
            cairo_translate(cr, glyph.x, glyph.y)
            cairo_scale(cr, factor, factor)
            cairo_set_source_surface(cr, image.surface, image.x, image.y)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_rectangle(cr, image.x, image.y, image.width, image.height)
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }
}
