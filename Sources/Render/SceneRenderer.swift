import CCairo
import Highlight
import Support
import Typeset

extension Renderer {
    /// Draws a scene on a new surface and returns the encoded file.
    package func render(_ scene: Scene, options: RenderOptions) throws -> [UInt8] {
        let canvas = try draw(scene, options: options)
        try options.cancellation.check()
        return try canvas.finish()
    }

    /// Draws a scene on a new image (`options.format` must be a raster one); the caller
    /// encodes it.
    package func drawImage(_ scene: Scene, options: RenderOptions) throws -> ImageCanvas {
        guard options.format.rasterFormat != nil else { throw RenderError.invalidOption("a \(options.format.rawValue.uppercased()) is drawn as a document, not as an image") }
        return ImageCanvas(try draw(scene, options: options))
    }

    /// Draws a scene on a new canvas of `options.format`'s kind.
    func draw(_ scene: Scene, options: RenderOptions) throws -> Canvas {
        try scene.validate()
        let (pixelWidth, pixelHeight) = try Renderer.pixelSize(width: scene.width, height: scene.height, options: options)
        try options.memory?.reserve(scene.workingBytes(pixels: (pixelWidth, pixelHeight), format: options.format, encoding: options.encoding))
        let faces = try FontFaces.of(scene, in: fonts, textMapped: options.format == .pdf)
        // Glyphs rasterised on the other core while the canvas is made and painted.
        let warmup = GlyphWarmup.start(scene, faces: faces, format: options.format, scale: options.scale,
                                       helper: options.oneShot ? fonts.helper : nil)
        defer { warmup?.wait() }
        // A raster canvas starts as a copy of the cached background (a gradient, a photo).
        let background = options.format.isVector ? nil
            : try backgrounds.pixels(scene.background, width: scene.width, height: scene.height, scale: options.scale,
                                         pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        let output = try Canvas(format: options.format, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                                opaque: scene.background.isOpaque, encoding: options.encoding, pdf: options.pdf,
                                background: background, oneShot: options.oneShot)
        try Renderer.draw(scene, on: output, faces: faces, pixelSize: (pixelWidth, pixelHeight), options: options, warmup: warmup)
        if options.format == .svg { output.svgTitle = scene.visibleText }
        return output
    }

    /// Draws a scene on the canvas's current page (a new image, or the next page of a PDF); the
    /// glyphs wait for `warmup` (and finish it) after the background is painted.
    static func draw(_ scene: Scene, on output: Canvas, faces: FontFaces, pixelSize: (Int, Int), options: RenderOptions,
                     warmup: GlyphWarmup? = nil) throws {
        let cr = output.context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_scale(cr, options.scale, options.scale)
        if !output.startsWithBackground {
            try BackgroundPainter.paint(cr, scene.background, width: scene.width, height: scene.height, scale: options.scale)
        }
        warmup?.finish()
        // Text blocks are elements of the structure tree (their `role`), in drawing order.
        let tagged = options.format == .pdf && options.pdf.tagged
        for index in scene.items.indices {
            try drawItem(scene, index, on: output, faces: faces, pixelSize: pixelSize, options: options, tagged: tagged)
        }
    }

    /// Item `index` of a scene as the still card draws it (a restricted block's sharp lines,
    /// then its blurred layer at `blur` strength).
    static func drawItem(_ scene: Scene, _ index: Int, on output: Canvas, faces: FontFaces, pixelSize: (Int, Int),
                         options: RenderOptions, tagged: Bool, blur: Double = 1) throws {
        let cr = output.context
        let item = scene.items[index]
        try options.cancellation.check()
        if case let .text(text) = item, let restriction = text.restriction, let boundary = restriction.boundary(in: text.layout) {
            // Sharp: the visible lines (in a PDF or SVG nothing sharp below the blurred image).
            let device = (text.y + boundary) * options.scale
            let feather = restriction.feather * options.scale
            cairo_save(cr)
            if options.format.isVector {
                cairo_identity_matrix(cr)
                cairo_rectangle(cr, -1e6, -1e6, 2e6, 1e6 + device + feather)
                cairo_restore(cr)
                cairo_save(cr)
                cairo_clip(cr)
            }
            // A PDF or SVG keeps vector paths even where they are clipped: its highlight is the
            // outline of the visible lines alone, so no hidden line's width is in the file.
            // (An image keeps the whole outline: its rows above the boundary stay exactly
            // those of the unrestricted render.)
            let visible = Array(text.layout.lines.prefix(restriction.visibleLines))
            try draw(cr, text, lines: visible, faces: faces, format: options.format, scale: options.scale,
                     outlineOf: options.format.isVector ? visible : nil, tagged: tagged, cancellation: options.cancellation)
            cairo_restore(cr)
            try RestrictedLayer.apply(scene, index: index, text: text, restriction: restriction, boundary: device,
                                      feather: feather, faces: faces, output: output,
                                      canvasSize: pixelSize, options: options, strength: blur)
        } else {
            try draw(cr, item, faces: faces, format: options.format, scale: options.scale, tagged: tagged,
                     cancellation: options.cancellation)
        }
        try Cairo.check(context: cr, "drawing the scene")
    }

    static func draw(_ cr: OpaquePointer, _ item: SceneItem, faces: FontFaces, format: OutputFormat, scale: Double,
                     textLayer: Bool? = nil, tagged: Bool = false, cancellation: Cancellation? = nil) throws {
        switch item {
        case let .text(text):
            try draw(cr, text, lines: text.layout.lines, faces: faces, format: format, scale: scale, textLayer: textLayer,
                     tagged: tagged, cancellation: cancellation)
        case let .dots(dots, color, connector):
            drawDots(cr, dots, color: color, connector: connector)
        case let .image(image, x, y, width, height, radius, alt, vector, window):
            // A Figure whose alternative text the catalog update adds (Cairo 1.16 writes no
            // attributes); a picture without one stays out of the structure.
            let figure = tagged && format == .pdf && alt != nil
            if figure {
                Canvas.openDocument(cr)
                Canvas.noteElement(cr, language: nil, alt: alt!)
                cairo_tag_begin(cr, "Figure", "")
            }
            if let vector, format.isVector {
                cairo_save(cr)
                ImagePainter.clipRounded(cr, x: x, y: y, width: width, height: height, radius: radius)
                try vector.draw(cr, x: x, y: y, width: width, height: height)
                cairo_restore(cr)
            } else {
                try ImagePainter.draw(cr, image, x: x, y: y, width: width, height: height, radius: radius, window: window)
            }
            if figure { cairo_tag_end(cr, "Figure") }
        }
    }

    /// A text item's highlight (of all its lines, or of `outlineOf`) and `lines`, at its place.
    static func draw(_ cr: OpaquePointer, _ text: PlacedText, lines: [Line], faces: FontFaces, format: OutputFormat,
                     scale: Double, textLayer: Bool? = nil, outlineOf: [Line]? = nil, tagged: Bool = false,
                     cancellation: Cancellation? = nil) throws {
        cairo_save(cr)
        cairo_translate(cr, text.x, text.y)
        var shaped = text.layout
        if let outlineOf { shaped.lines = outlineOf }
        let outline = text.paint.highlight.map { shaped.highlightOutline($0.style) }
        // A picture in the flow is drawn as the scene's pictures are (a Figure when it has alt text).
        let figure = { (paragraph: Int) -> (() throws -> Void)? in
            text.figures[paragraph].map { item in
                { try draw(cr, item, faces: faces, format: format, scale: scale, tagged: tagged, cancellation: cancellation) }
            }
        }
        try drawText(cr, text.layout, lines: reaching(cr, lines, paint: text.paint), faces: faces, outline: outline,
                     paint: text.paint, format: format, scale: scale, textLayer: textLayer, role: tagged ? text.role : nil, language: text.language,
                     figures: text.figures.isEmpty ? nil : figure, cancellation: cancellation)
        cairo_restore(cr)
    }

    /// The lines whose ink can reach the clip (the canvas, the page): drawing, span outlines,
    /// underlines and links then cost what the surface shows, not the length of the text (a
    /// 400 px card of 350,000 lines drew every line). A line's reach is generous: twice its
    /// height, the shadow's offset and blur, the stroke and the highlights' padding.
    static func reaching(_ cr: OpaquePointer, _ lines: [Line], paint: TextPaint) -> [Line] {
        let reaches = reachesClip(cr, paint: paint)
        let kept = lines.filter(reaches)
        return kept.count == lines.count ? lines : kept
    }

    /// Whether a line's ink can reach the clip as it is now (the test `reaching` applies; an
    /// animation's frame filters its moving lines with it too).
    static func reachesClip(_ cr: OpaquePointer, paint: TextPaint) -> (Line) -> Bool {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        guard y1 > y0 else { return { _ in false } }
        let extra = paint.inkReach
        return { line in
            let reach = 2 * line.height + extra
            return line.top + line.height + reach >= y0 && line.top - reach <= y1
        }
    }

    private static func drawDots(_ cr: OpaquePointer, _ dots: [DotMark], color c: Color,
                                 connector: (x: Double, top: Double, bottom: Double)?) {
        if let line = connector, let d = dots.first?.diameter {
            // Drawn between the dots, not through them: a hollow dot shows what is behind it
            // (a gradient or a photo too), not the line.
            c.setSource(cr)
            cairo_set_line_width(cr, max(1, d / 5))
            let ys = [line.top] + dots.map(\.centerY).filter { $0 > line.top && $0 < line.bottom } + [line.bottom]
            for (a, b) in zip(ys, ys.dropFirst()) where b - a > d {
                cairo_move_to(cr, line.x, a + d / 2)
                cairo_line_to(cr, line.x, b - d / 2)
            }
            cairo_stroke(cr)
        }
        for dot in dots { drawDot(cr, dot, color: c) }
    }

    private static func drawDot(_ cr: OpaquePointer, _ dot: DotMark, color c: Color) {
        let r = dot.diameter / 2, ring = max(1, dot.diameter / 6)
        let disc = { (radius: Double) in
            cairo_new_path(cr)
            cairo_arc(cr, dot.centerX, dot.centerY, radius, 0, 2 * .pi)
        }
        let outline = {
            disc(r - ring / 2)
            c.setSource(cr)
            cairo_set_line_width(cr, ring)
            cairo_stroke(cr)
        }
        switch dot.style {
        case .filled:
            disc(r)
            c.setSource(cr)
            cairo_fill(cr)
        case .current:
            disc(r * 0.6)
            c.setSource(cr)
            cairo_fill(cr)
            outline()
        case .hollow:
            outline()
        }
    }
}

extension Scene {
    /// The numbers of items built as enum cases (no initialiser of their own checks them):
    /// finite, and within the lengths Cairo's fixed-point coordinates hold.
    func validate() throws(ValueError) {
        let place = { (v: Double, name: String) throws(ValueError) in _ = try Checked.length(v, name, signed: true) }
        let size = { (v: Double, name: String) throws(ValueError) in _ = try Checked.length(v, name) }
        if case let .linearGradient(angle, _) = background { try place(angle, "gradient angle") }
        for item in items {
            switch item {
            case .text: break  // PlacedText checks its own place
            case let .image(_, x, y, width, height, radius, _, _, _):
                try place(x, "image x"); try place(y, "image y")
                try size(width, "image width"); try size(height, "image height"); try size(radius, "image radius")
            case let .dots(dots, _, connector):
                for dot in dots {
                    try place(dot.centerX, "dot x"); try place(dot.centerY, "dot y"); try size(dot.diameter, "dot diameter")
                }
                if let connector {
                    try place(connector.x, "connector x"); try place(connector.top, "connector top")
                    try place(connector.bottom, "connector bottom")
                }
            }
        }
    }
}

extension Background {
    /// Whether nothing shows through (a JPEG of a see-through card is flattened over white).
    package var isOpaque: Bool {
        switch self {
        case let .color(color): return color.alpha >= 1
        case let .linearGradient(_, stops): return stops.allSatisfy { $0.color.alpha >= 1 }
        case let .image(_, fit, _, _, color): return fit == .cover || color.alpha >= 1
        }
    }
}
