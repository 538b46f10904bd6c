import Support
import CCairo
import Glibc

/// Paints a scene's background: a colour, a CSS-style linear gradient, or a picture (cover or
/// contain, optionally blurred with the box-blur kernel and dimmed).
enum BackgroundPainter {
    static func paint(_ cr: OpaquePointer, _ background: Background, width: Double, height: Double, scale: Double) throws {
        switch background {
        case let .color(color):
            Renderer.paint(cr, color)
        case let .linearGradient(angle, stops):
            let pattern = gradient(angle: angle, stops: stops, width: width, height: height)
            defer { cairo_pattern_destroy(pattern) }
            cairo_save(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source(cr, pattern)
            cairo_paint(cr)
            cairo_restore(cr)
        case let .image(image, fit, blur, dim, color):
            Renderer.paint(cr, color)
            try paintImage(cr, image, fit: fit, blur: blur.value, width: width, height: height, scale: scale)
            if dim.value > 0 {
                cairo_set_source_rgba(cr, 0, 0, 0, dim.value)
                cairo_paint(cr)
            }
        }
    }

    /// CSS `linear-gradient(angle, stops)`: the gradient line passes through the centre, long
    /// enough that the corners get the end colours.
    static func gradient(angle: Double, stops: [GradientStop], width: Double, height: Double) -> OpaquePointer {
        let radians = angle * .pi / 180
        let dx = sin(radians), dy = -cos(radians)
        let length = abs(width * dx) + abs(height * dy)
        let cx = width / 2, cy = height / 2
        let pattern = cairo_pattern_create_linear(cx - dx * length / 2, cy - dy * length / 2,
                                                  cx + dx * length / 2, cy + dy * length / 2)!
        for (position, color) in resolvedPositions(stops) {
            cairo_pattern_add_color_stop_rgba(pattern, position, color.red, color.green, color.blue, color.alpha)
        }
        return pattern
    }

    /// CSS's rules for stop positions: the first defaults to 0, the last to 1, unpositioned
    /// ones spread evenly between positioned neighbours, and a position never goes back.
    static func resolvedPositions(_ stops: [GradientStop]) -> [(Double, Color)] {
        var positions = stops.map(\.position)
        guard !positions.isEmpty else { return [] }
        if positions[0] == nil { positions[0] = 0 }
        if positions[positions.count - 1] == nil { positions[positions.count - 1] = 1 }
        var highest = positions[0]!
        for i in positions.indices {
            if let p = positions[i] { highest = max(highest, p); positions[i] = highest }
        }
        var i = 0
        while i < positions.count {
            if positions[i] == nil {
                let start = i - 1
                var end = i
                while positions[end] == nil { end += 1 }
                let from = positions[start]!, to = positions[end]!
                for k in (start + 1)..<end {
                    positions[k] = from + (to - from) * Double(k - start) / Double(end - start)
                }
                i = end
            }
            i += 1
        }
        return zip(positions, stops).map { ($0!, $1.color) }
    }

    private static func paintImage(_ cr: OpaquePointer, _ image: RasterImage, fit: ImageFit, blur: Double,
                                   width: Double, height: Double, scale: Double) throws {
        let source = try ImagePainter.surface(image)
        defer { cairo_surface_destroy(source) }
        let factor = fit == .cover ? max(width / Double(image.width), height / Double(image.height))
                                   : min(width / Double(image.width), height / Double(image.height))
        let drawnWidth = Double(image.width) * factor, drawnHeight = Double(image.height) * factor
        let x = (width - drawnWidth) / 2, y = (height - drawnHeight) / 2
        guard blur > 0 else {
            cairo_save(cr)
            cairo_translate(cr, x, y)
            cairo_scale(cr, factor, factor)
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
            cairo_fill(cr)
            cairo_restore(cr)
            return
        }
        // Blurred: draw the part of the picture the canvas shows, grown by the blur's reach, on
        // a padded surface (edges extended past the picture's own, so the blur does not fade at
        // them), blur it, and paint the middle. Only the visible part: a 1 x 10^8 picture
        // covering a card is 10^11 px long.
        let visible = (x0: max(0, x), y0: max(0, y), x1: min(width, x + drawnWidth), y1: min(height, y + drawnHeight))
        guard visible.x1 > visible.x0, visible.y1 > visible.y0 else { return }
        let sigma = blur * scale
        let pad = BoxBlur.reach(sigma: sigma) + 1
        let pw = try Checked.side((visible.x1 - visible.x0) * scale, "the blurred background's width") + 2 * pad
        let ph = try Checked.side((visible.y1 - visible.y0) * scale, "the blurred background's height") + 2 * pad
        let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pw), Int32(ph))!
        defer { cairo_surface_destroy(layer) }
        try Cairo.check(surface: layer, "creating the background blur surface")
        let lc = cairo_create(layer)!
        cairo_translate(lc, Double(pad) + (x - visible.x0) * scale, Double(pad) + (y - visible.y0) * scale)
        cairo_scale(lc, factor * scale, factor * scale)
        cairo_set_source_surface(lc, source, 0, 0)
        cairo_pattern_set_extend(cairo_get_source(lc), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(lc), CAIRO_FILTER_GOOD)
        cairo_paint(lc)
        cairo_destroy(lc)
        cairo_surface_flush(layer)
        BoxBlur.blur(cairo_image_surface_get_data(layer), width: pw, height: ph,
                     stride: Int(cairo_image_surface_get_stride(layer)), sigma: sigma)
        cairo_surface_mark_dirty(layer)
        cairo_save(cr)
        cairo_rectangle(cr, visible.x0, visible.y0, visible.x1 - visible.x0, visible.y1 - visible.y0)
        cairo_clip(cr)
        cairo_translate(cr, visible.x0, visible.y0)
        cairo_scale(cr, 1 / scale, 1 / scale)
        cairo_set_source_surface(cr, layer, Double(-pad), Double(-pad))
        cairo_paint(cr)
        cairo_restore(cr)
    }
}

/// Pictures on a scene: RGBA to a Cairo surface, drawn into a box with rounded corners.
enum ImagePainter {
    /// A premultiplied ARGB32 surface of the image (the caller destroys it).
    static func surface(_ image: RasterImage) throws -> OpaquePointer {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))!
        do {
            try Cairo.check(surface: surface, "creating an image surface of \(image.width)x\(image.height)")
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<image.width {
                    let i = (y * image.width + x) * 4
                    let a = UInt32(src[i + 3])
                    let premultiply = { (c: UInt8) in (UInt32(c) * a + 127) / 255 }
                    row[x] = a << 24 | premultiply(src[i]) << 16 | premultiply(src[i + 1]) << 8 | premultiply(src[i + 2])
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    /// Clips `cr` to the picture's box, its corners rounded by `radius` (at most half a side).
    static func clipRounded(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = max(0, min(radius, width / 2, height / 2))
        cairo_new_path(cr)
        if r > 0 {
            cairo_arc(cr, x + width - r, y + r, r, -.pi / 2, 0)
            cairo_arc(cr, x + width - r, y + height - r, r, 0, .pi / 2)
            cairo_arc(cr, x + r, y + height - r, r, .pi / 2, .pi)
            cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
            cairo_close_path(cr)
        } else {
            cairo_rectangle(cr, x, y, width, height)
        }
        cairo_clip(cr)
    }

    /// Draws `image` into the box, corners rounded by `radius`; with a `window`, the image is
    /// only that part of the picture the box holds.
    static func draw(_ cr: OpaquePointer, _ image: RasterImage, x: Double, y: Double, width: Double, height: Double,
                     radius: Double, window: RasterWindow? = nil) throws {
        let source = try surface(image)
        defer { cairo_surface_destroy(source) }
        cairo_save(cr)
        clipRounded(cr, x: x, y: y, width: width, height: height, radius: radius)
        let part = window?.rect(inBox: width, height) ?? (x: 0, y: 0, width: width, height: height)
        cairo_translate(cr, x + part.x, y + part.y)
        cairo_scale(cr, part.width / Double(image.width), part.height / Double(image.height))
        cairo_set_source_surface(cr, source, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
