import CCairo
import Highlight
import Typeset

/// Restricted-content mode: lines before `visibleLines` stay sharp, the rest is blurred.
public struct Restriction: Sendable {
    public var visibleLines: Int
    /// Gaussian standard deviation in layout pixels (scaled with the output scale).
    public var sigma: Double
    /// Height in layout pixels over which sharp turns into blurred, below the boundary.
    public var feather: Double

    public init(visibleLines: Int, sigma: Double, feather: Double = 4) {
        self.visibleLines = visibleLines
        self.sigma = sigma
        self.feather = feather
    }

    /// Largest sigma accepted (px at scale 1): past it the padding alone would be huge.
    public static let maxSigma = 200.0
    /// Smallest sigma as a fraction of the font size: below it large text stays readable.
    public static let minSigmaPerFontSize = 0.15

    public func effectiveSigma(fontSize: Double) -> Double {
        max(sigma, Restriction.minSigmaPerFontSize * fontSize)
    }

    /// Where the restricted part starts, in layout coordinates (top of the text block = 0): the
    /// bottom of the last visible line, or the top of the first line when none is visible.
    public func boundary(in layout: Layout) -> Double? {
        guard visibleLines < layout.lines.count else { return nil }
        return visibleLines == 0 ? layout.lines[0].top : layout.lines[visibleLines - 1].bottom
    }
}

/// Drawing the restricted part: the scene (background, highlight, hidden lines) on an image
/// surface padded so the blur is never clipped, blurred, then blended in below the boundary.
enum RestrictedLayer {
    /// The blurred layer and its padding in device pixels.
    static func render(_ layout: Layout, options: RenderOptions, geometry: CanvasGeometry, restriction: Restriction,
                       faces: FontFaces, outline: Outline?) throws -> (surface: OpaquePointer, pad: Int) {
        let sigma = restriction.effectiveSigma(fontSize: layout.size) * options.scale
        let pad = BoxBlur.reach(sigma: sigma) + 1
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(geometry.pixelWidth + 2 * pad),
                                                 Int32(geometry.pixelHeight + 2 * pad))!
        try Cairo.check(surface: surface, "creating the blur surface")
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        Renderer.paint(cr, options.background)  // over the padding too: no faded edges
        cairo_translate(cr, Double(pad), Double(pad))
        cairo_scale(cr, options.scale, options.scale)
        cairo_translate(cr, geometry.originX, geometry.originY)
        let hidden = Array(layout.lines[min(restriction.visibleLines, layout.lines.count)...])
        try Renderer.drawText(cr, layout, lines: hidden, faces: faces, outline: outline, options: options,
                              textLayer: false)  // pixels only
        try Cairo.check(context: cr, "drawing the restricted lines")
        cairo_surface_flush(surface)
        BoxBlur.blur(cairo_image_surface_get_data(surface), width: Int(cairo_image_surface_get_width(surface)),
                     height: Int(cairo_image_surface_get_height(surface)),
                     stride: Int(cairo_image_surface_get_stride(surface)), sigma: sigma)
        cairo_surface_mark_dirty(surface)
        return (surface, pad)
    }

    /// Weight of the blurred layer for device row `y` (0 above the boundary, exactly).
    static func weight(row y: Int, boundary: Double, feather: Double) -> Double {
        let center = Double(y) + 0.5
        if center < boundary { return 0 }
        return feather <= 0 ? 1 : min(1, (center - boundary) / feather)
    }

    /// Blends the blurred layer into an image surface row by row: rows above the boundary are
    /// not touched, so they stay byte-identical to the unrestricted render.
    static func blend(into target: OpaquePointer, blurred: OpaquePointer, pad: Int, boundary: Double, feather: Double) {
        cairo_surface_flush(target)
        let width = Int(cairo_image_surface_get_width(target)), height = Int(cairo_image_surface_get_height(target))
        let dst = cairo_image_surface_get_data(target)!, src = cairo_image_surface_get_data(blurred)!
        let dstStride = Int(cairo_image_surface_get_stride(target)), srcStride = Int(cairo_image_surface_get_stride(blurred))
        for y in 0..<height {
            let t = weight(row: y, boundary: boundary, feather: feather)
            if t == 0 { continue }
            let out = dst + y * dstStride, inp = src + (y + pad) * srcStride + pad * 4
            if t >= 1 {
                out.update(from: inp, count: width * 4)
            } else {
                let k = UInt32((t * 256).rounded())
                for i in 0..<(width * 4) {
                    out[i] = UInt8((UInt32(out[i]) * (256 - k) + UInt32(inp[i]) * k + 128) >> 8)
                }
            }
        }
        cairo_surface_mark_dirty(target)
    }

    /// In a PDF: the blurred layer as an image below the boundary, faded in over the feather.
    static func paint(into cr: OpaquePointer, blurred: OpaquePointer, pad: Int, boundary: Double, feather: Double) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, blurred, Double(-pad), Double(-pad))
        if feather > 0 {
            let mask = cairo_pattern_create_linear(0, boundary, 0, boundary + feather)!
            cairo_pattern_add_color_stop_rgba(mask, 0, 0, 0, 0, 0)
            cairo_pattern_add_color_stop_rgba(mask, 1, 0, 0, 0, 1)
            cairo_mask(cr, mask)
            cairo_pattern_destroy(mask)
        } else {
            cairo_rectangle(cr, -1e6, boundary, 2e6, 2e6)
            cairo_fill(cr)
        }
        cairo_restore(cr)
    }
}
