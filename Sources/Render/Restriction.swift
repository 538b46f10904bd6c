import CCairo
import Highlight
import Support
import Typeset

/// Restricted-content mode: lines before `visibleLines` stay sharp, the rest is blurred.
package struct Restriction: Sendable {
    package let visibleLines: Int
    /// Gaussian standard deviation in layout pixels (scaled with the output scale).
    package let sigma: Double
    /// Height in layout pixels over which sharp turns into blurred, below the boundary.
    package let feather: Double

    /// Checked here, not by each caller: a spec from JSON never passes through the CLI's checks.
    package init(visibleLines: Int, sigma: Double, feather: Double = 4) throws {
        guard visibleLines >= 0 else { throw RenderError.invalidOption("visible lines must be 0 or more, got \(visibleLines)") }
        guard sigma.isFinite, (0...Sigma.max).contains(sigma) else {
            throw RenderError.invalidOption("blur radius must be between 0 and \(Int(Sigma.max)) px, got \(sigma)")
        }
        guard feather.isFinite, feather >= 0, feather <= 10_000 else {
            throw RenderError.invalidOption("feather must be between 0 and 10000 px, got \(feather)")
        }
        self.visibleLines = visibleLines
        self.sigma = sigma
        self.feather = feather
    }

    /// Smallest sigma as a fraction of the font size: below it large text stays readable.
    package static let minSigmaPerFontSize = 0.15

    /// The sigma used: at least 0.15 x the font size, but never over twice the largest one
    /// accepted (the padded blur surface grows with it; huge type is scrambled anyway).
    package func effectiveSigma(fontSize: Double) -> Double {
        min(max(sigma, Restriction.minSigmaPerFontSize * fontSize), 2 * Sigma.max)
    }

    /// Where the restricted part starts, in layout coordinates (top of the text block = 0): the
    /// bottom of the last visible line, or the top of the first line when none is visible.
    package func boundary(in layout: Layout) -> Double? {
        guard visibleLines < layout.lines.count else { return nil }
        return visibleLines == 0 ? layout.lines[0].top : layout.lines[visibleLines - 1].bottom
    }
}

/// A text block whose lines after `restriction.visibleLines` are blurred. The hidden lines
/// come either scrambled (`ScrambledLayout`, the default everywhere) or, by an explicit choice
/// in the type, with their real glyphs.
package struct RestrictedText: Sendable {
    package let layout: Layout
    package let restriction: Restriction

    package init(scrambled: ScrambledLayout, restriction: Restriction) throws {
        guard scrambled.firstHiddenLine <= restriction.visibleLines || restriction.visibleLines >= scrambled.layout.lines.count else {
            throw RenderError.invalidOption("the layout is scrambled from line \(scrambled.firstHiddenLine + 1), but line \(restriction.visibleLines + 1) on is hidden")
        }
        self.layout = scrambled.layout
        self.restriction = restriction
    }

    /// The hidden lines keep their real glyphs under the blur: not for secrets.
    package init(realGlyphs layout: Layout, restriction: Restriction) {
        self.layout = layout
        self.restriction = restriction
    }
}

/// Drawing a restricted block: the scene under it and its hidden lines on an image surface
/// padded so the blur is never clipped, blurred, then blended in below the boundary.
enum RestrictedLayer {
    /// Blurs what lies under a restricted text item below its boundary (device rows), over the
    /// item's region: the scene's background and earlier items, the item's highlight and its
    /// hidden lines, drawn again on a padded image surface (pixels only), blurred, then blended
    /// into a PNG row by row or painted into a PDF or SVG as an image.
    static func apply(_ scene: Scene, index: Int, text: PlacedText, restriction: Restriction, boundary: Double, feather: Double,
                      faces: FontFaces, output: Canvas, canvasSize: (Int, Int), options: RenderOptions, strength: Double = 1) throws {
        // An animation fading the blurred layer in (`strength` below 1) draws it over what is
        // there already: the hidden lines are never drawn sharp, so nothing shows through.
        guard strength > 0 else { return }
        let scale = options.scale
        let sigma = restriction.effectiveSigma(fontSize: text.layout.size) * scale
        let pad = BoxBlur.reach(sigma: sigma) + 1
        let (canvasWidth, canvasHeight) = canvasSize
        // The item's box grown by its highlight, an em of glyph overhang and the blur's reach.
        let paddingX = (text.paint.highlight?.style.paddingX ?? 0) + (text.paint.highlight?.strokeWidth ?? 0) + text.layout.size
        let paddingY = (text.paint.highlight?.style.paddingY ?? 0) + (text.paint.highlight?.strokeWidth ?? 0) + text.layout.size
        let x0 = max(0, Checked.clamped((text.x - paddingX) * scale, .down, in: -pad...canvasWidth) - pad)
        let x1 = min(canvasWidth, Checked.clamped((text.x + text.layout.width + paddingX) * scale, .up, in: 0...canvasWidth) + pad)
        let y0 = Checked.clamped(boundary, .down, in: 0...canvasHeight)
        let y1 = min(canvasHeight, Checked.clamped((text.y + text.layout.height + paddingY) * scale, .up, in: 0...canvasHeight) + pad)
        guard x1 > x0, y1 > y0 else { return }
        let region = (x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        // The padded surface counts against the pixel limit like the canvas does.
        let padded = (width: region.width + 2 * pad, height: region.height + 2 * pad)
        guard Checked.pixels(padded.width, padded.height, within: options.maxPixels) else {
            throw RenderError.surfaceTooLarge("the restricted blur", width: padded.width, height: padded.height, limit: options.maxPixels)
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(padded.width), Int32(padded.height))!
        defer { cairo_surface_destroy(surface) }
        try Cairo.check(surface: surface, "creating the blur surface")
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_translate(cr, Double(pad - region.x), Double(pad - region.y))
        cairo_scale(cr, scale, scale)
        try BackgroundPainter.paint(cr, scene.background, width: scene.width, height: scene.height, scale: scale)
        for item in scene.items[..<index] {
            try Renderer.draw(cr, item, faces: faces, format: .png, scale: scale, textLayer: false)
        }
        let hidden = Array(text.layout.lines[min(restriction.visibleLines, text.layout.lines.count)...])
        try Renderer.draw(cr, text, lines: hidden, faces: faces, format: .png, scale: scale, textLayer: false)
        try Cairo.check(context: cr, "drawing the restricted lines")
        cairo_surface_flush(surface)
        BoxBlur.blur(cairo_image_surface_get_data(surface), width: Int(cairo_image_surface_get_width(surface)),
                     height: Int(cairo_image_surface_get_height(surface)),
                     stride: Int(cairo_image_surface_get_stride(surface)), sigma: sigma)
        cairo_surface_mark_dirty(surface)
        if options.format.isVector {
            paint(into: output.context, blurred: surface, pad: pad, region: region, boundary: boundary, feather: feather)
        } else {
            blend(into: output.surface, blurred: surface, pad: pad, region: region, boundary: boundary, feather: feather, strength: strength)
        }
    }

    /// Weight of the blurred layer for device row `y` (0 above the boundary, exactly).
    static func weight(row y: Int, boundary: Double, feather: Double) -> Double {
        let center = Double(y) + 0.5
        if center < boundary { return 0 }
        return feather <= 0 ? 1 : min(1, (center - boundary) / feather)
    }

    /// Blends the blurred layer into an image surface row by row over the region: rows above
    /// the boundary are not touched, so they stay byte-identical to the unrestricted render.
    static func blend(into target: OpaquePointer, blurred: OpaquePointer, pad: Int, region: (x: Int, y: Int, width: Int, height: Int),
                      boundary: Double, feather: Double, strength: Double = 1) {
        cairo_surface_flush(target)
        let dst = cairo_image_surface_get_data(target)!, src = cairo_image_surface_get_data(blurred)!
        let dstStride = Int(cairo_image_surface_get_stride(target)), srcStride = Int(cairo_image_surface_get_stride(blurred))
        for y in region.y..<(region.y + region.height) {
            let t = weight(row: y, boundary: boundary, feather: feather) * strength
            if t == 0 { continue }
            let out = dst + y * dstStride + region.x * 4, inp = src + (y - region.y + pad) * srcStride + pad * 4
            let count = region.width * 4
            if t >= 1 {
                out.update(from: inp, count: count)
            } else {
                let k = UInt32(Checked.clamped(t * 256, .toNearestOrAwayFromZero, in: 0...256))
                for i in 0..<count {
                    out[i] = UInt8((UInt32(out[i]) * (256 - k) + UInt32(inp[i]) * k + 128) >> 8)
                }
            }
        }
        cairo_surface_mark_dirty(target)
    }

    /// In a PDF or SVG: the blurred layer as an image over the region below the boundary, faded in
    /// over the feather.
    static func paint(into cr: OpaquePointer, blurred: OpaquePointer, pad: Int, region: (x: Int, y: Int, width: Int, height: Int),
                      boundary: Double, feather: Double, strength: Double = 1) {
        // The feather is baked into the layer's alpha rather than drawn as a gradient mask:
        // Cairo 1.16's SVG surface places a mask in the image's own coordinates (off by the
        // image's offset), and a document is smaller without a second object.
        cairo_surface_flush(blurred)
        let data = cairo_image_surface_get_data(blurred)!, stride = Int(cairo_image_surface_get_stride(blurred))
        let rows = Int(cairo_image_surface_get_height(blurred)), bytes = Int(cairo_image_surface_get_width(blurred)) * 4
        for row in 0..<rows {
            let t = weight(row: region.y - pad + row, boundary: boundary, feather: feather)
            if t >= 1 { continue }
            let line = data + row * stride
            if t == 0 { line.update(repeating: 0, count: bytes); continue }
            // Premultiplied: colour and alpha scale alike.
            for i in 0..<bytes { line[i] = UInt8((Double(line[i]) * t).rounded()) }
        }
        cairo_surface_mark_dirty(blurred)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, Double(region.x), Double(region.y), Double(region.width), Double(region.height))
        cairo_clip(cr)
        cairo_set_source_surface(cr, blurred, Double(region.x - pad), Double(region.y - pad))
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
