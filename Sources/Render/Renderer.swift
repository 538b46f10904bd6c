import CCairo
import Highlight
import Typeset

public enum OutputFormat: String, CaseIterable, Sendable {
    case png, pdf

    /// The longest side an output can have: Cairo's image surfaces address 32,767 px; a PDF
    /// page is at most 14,400 pt (200 in) a side, and Cairo's PDF coordinates fail past it.
    public var maxSide: Int { self == .png ? 32_767 : 14_400 }
}

/// How to turn a layout into an image.
public struct RenderOptions: Sendable {
    public var format: OutputFormat = .png
    public var textColor: Color = .black
    public var background: Color = .white
    /// Space around the text block when the canvas fits the text.
    public var margin: Double = 32
    /// A fixed canvas in layout pixels (the block is centred); nil fits the block plus margin.
    public var canvas: (width: Double, height: Double)?
    /// Output pixels per layout pixel (@2x, @3x): the layout does not change.
    public var scale: Double = 1
    public var maxPixels: Int = 100_000_000
    /// The story-style shape behind the lines, drawn before the glyphs.
    public var highlight: HighlightPaint?
    /// Restricted-content mode (the layout's hidden lines should already be scrambled).
    public var restriction: Restriction?
    /// Text effects (never applied to the highlight).
    public var shadow: TextShadow?
    public var stroke: TextStroke?

    public init() {}
}

/// Where things land on the canvas, in layout pixels.
public struct CanvasGeometry: Equatable, Sendable {
    public var width: Double
    public var height: Double
    /// Top-left of the text block.
    public var originX: Double
    public var originY: Double
    /// Size of the output in device pixels (PNG) or points (PDF).
    public var pixelWidth: Int
    public var pixelHeight: Int
}

public enum Renderer {
    public static func geometry(for layout: Layout, options: RenderOptions) throws -> CanvasGeometry {
        // A fitted canvas also holds the highlight's padding (and half its stroke).
        let stroke = options.highlight?.stroke == nil ? 0 : (options.highlight?.strokeWidth ?? 0) / 2
        let padX = (options.highlight?.style.paddingX ?? 0) + stroke
        let padY = (options.highlight?.style.paddingY ?? 0) + stroke
        let width = options.canvas?.width ?? layout.width + 2 * (options.margin + padX)
        let height = options.canvas?.height ?? layout.height + 2 * (options.margin + padY)
        let (pixelWidth, pixelHeight) = try pixelSize(width: width, height: height, options: options)
        return CanvasGeometry(width: width, height: height, originX: (width - layout.width) / 2,
                              originY: (height - layout.height) / 2, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
    }

    /// The output size in device pixels, refused when empty, over the format's side limit or
    /// over the pixel limit (checked before anything is drawn at that size).
    static func pixelSize(width: Double, height: Double, options: RenderOptions) throws -> (Int, Int) {
        let w = (width * options.scale).rounded(.up), h = (height * options.scale).rounded(.up)
        // Checked in floating point first: absurd sizes must not overflow the conversion.
        let clamp = { (v: Double) in v.isFinite && v < 1e15 ? Int(v) : Int(1e15) }
        let side = options.format.maxSide
        guard w <= Double(side), h <= Double(side) else {
            throw RenderError.sideTooLong(width: clamp(w), height: clamp(h), limit: side, format: options.format)
        }
        guard w * h <= Double(options.maxPixels) else {
            throw RenderError.canvasTooLarge(width: clamp(w), height: clamp(h), limit: options.maxPixels)
        }
        let pixelWidth = Int(w), pixelHeight = Int(h)
        guard pixelWidth > 0, pixelHeight > 0 else {
            throw RenderError.invalidCanvas("canvas \(pixelWidth)x\(pixelHeight) is empty")
        }
        return (pixelWidth, pixelHeight)
    }

    /// The encoded file (PNG or PDF bytes).
    public static func render(_ layout: Layout, options: RenderOptions) throws -> [UInt8] {
        let geometry = try geometry(for: layout, options: options)
        let faces = try FontFaces(layout.fonts)
        try faces.checkGlyphs(of: [layout])
        let output = try OutputSurface(format: options.format, pixelWidth: geometry.pixelWidth,
                                       pixelHeight: geometry.pixelHeight, opaque: options.background.alpha >= 1)
        let cr = output.context
        let restriction = options.restriction.flatMap { r in r.boundary(in: layout).map { (r, $0) } }
        // Device-pixel boundary between the sharp and the blurred part.
        let boundary = restriction.map { (geometry.originY + $0.1) * options.scale }
        let feather = (options.restriction?.feather ?? 0) * options.scale
        cairo_scale(cr, options.scale, options.scale)
        paint(cr, options.background)
        cairo_translate(cr, geometry.originX, geometry.originY)
        if options.format == .pdf, let boundary {
            // Nothing sharp under the image that covers the restricted part (the text layer
            // keeps only the visible lines).
            cairo_save(cr)
            cairo_identity_matrix(cr)
            cairo_rectangle(cr, -1e6, -1e6, 2e6, 1e6 + boundary + feather)
            cairo_restore(cr)
            cairo_clip(cr)
        }
        let visible = restriction.map { Array(layout.lines.prefix($0.0.visibleLines)) } ?? layout.lines
        let outline = options.highlight.map { layout.highlightOutline($0.style) }  // shared by both layers
        try drawText(cr, layout, lines: visible, faces: faces, outline: outline, options: options)
        cairo_reset_clip(cr)
        if let (r, _) = restriction, let boundary {
            let (blurred, pad) = try RestrictedLayer.render(layout, options: options, geometry: geometry,
                                                            restriction: r, faces: faces, outline: outline)
            defer { cairo_surface_destroy(blurred) }
            switch options.format {
            case .png:
                RestrictedLayer.blend(into: output.surface, blurred: blurred, pad: pad, boundary: boundary, feather: feather)
            case .pdf:
                RestrictedLayer.paint(into: cr, blurred: blurred, pad: pad, boundary: boundary, feather: feather)
            }
            try Cairo.check(context: cr, "blending the restricted part")
        }
        return try output.finish()
    }

    /// The highlight (`outline`) behind the whole layout, then the glyphs of `lines`, at the
    /// current origin, with the render's one text colour and highlight.
    static func drawText(_ cr: OpaquePointer, _ layout: Layout, lines: [Line], faces: FontFaces, outline: Outline?,
                         options: RenderOptions, textLayer: Bool? = nil) throws {
        try drawText(cr, layout, lines: lines, faces: faces, outline: outline,
                     paint: TextPaint(color: options.textColor, highlight: options.highlight, shadow: options.shadow,
                                      stroke: options.stroke),
                     format: options.format, scale: options.scale, textLayer: textLayer)
    }

    /// The highlight behind the layout, the shadow, the stroke, then the glyphs. Effects apply
    /// to the text only, never to the highlight.
    static func drawText(_ cr: OpaquePointer, _ layout: Layout, lines: [Line], faces: FontFaces, outline: Outline?,
                         paint: TextPaint, format: OutputFormat, scale: Double, textLayer: Bool? = nil) throws {
        if let highlight = paint.highlight, let outline {
            HighlightPainter.draw(cr, outline: outline, paint: highlight)
        }
        if let shadow = paint.shadow {
            try TextEffects.drawShadow(cr, layout, lines: lines, faces: faces, shadow: shadow, scale: scale)
        }
        try TextPainter(layout: layout, faces: faces, textLayer: textLayer ?? (format == .pdf))
            .draw(cr, lines: lines, color: paint.color, stroke: paint.stroke)
    }

    static func paint(_ cr: OpaquePointer, _ color: Color) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        color.setSource(cr)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
