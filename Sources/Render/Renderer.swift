import CCairo
import Highlight
import Support
import Typeset

public enum OutputFormat: String, CaseIterable, Sendable {
    case png, pdf, jpeg, webp

    /// The format a file name's extension asks for (.png, .pdf, .jpg/.jpeg, .webp).
    public init?(extension ext: String) {
        switch ext.lowercased() {
        case "png": self = .png
        case "pdf": self = .pdf
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The longest side an output can have: Cairo's image surfaces address 32,767 px (WebP
    /// 16,383); a PDF page is at most 14,400 pt (200 in) a side, and Cairo's PDF coordinates
    /// fail past it.
    public var maxSide: Int {
        switch self {
        case .png, .jpeg: 32_767
        case .webp: 16_383
        case .pdf: 14_400
        }
    }
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
    /// PNG compression, JPEG/WebP quality.
    public var encoding = EncodeOptions()
    /// PDF document information.
    public var pdf = PDFMetadata()
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
    public var background: Color

    public init(width: Double, height: Double, originX: Double, originY: Double, pixelWidth: Int, pixelHeight: Int,
                background: Color) {
        (self.width, self.height, self.originX, self.originY) = (width, height, originX, originY)
        (self.pixelWidth, self.pixelHeight, self.background) = (pixelWidth, pixelHeight, background)
    }
}

public enum Renderer {
    public static func geometry(for layout: Layout, options: RenderOptions) throws -> CanvasGeometry {
        // A fitted canvas also holds the highlight's padding (and half its stroke).
        let (padX, padY) = options.highlight?.reach ?? (0, 0)
        let width = options.canvas?.width ?? layout.width + 2 * (options.margin + padX)
        let height = options.canvas?.height ?? layout.height + 2 * (options.margin + padY)
        let (pixelWidth, pixelHeight) = try pixelSize(width: width, height: height, options: options)
        return CanvasGeometry(width: width, height: height, originX: (width - layout.width) / 2,
                              originY: (height - layout.height) / 2, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                              background: options.background)
    }

    /// The output size in device pixels, refused when empty, over the format's side limit or
    /// over the pixel limit (checked before anything is drawn at that size).
    static func pixelSize(width: Double, height: Double, options: RenderOptions) throws -> (Int, Int) {
        let w = (width * options.scale).rounded(.up), h = (height * options.scale).rounded(.up)
        // Checked in floating point first: NaN, infinities and absurd sizes must not reach the
        // conversion.
        guard w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw RenderError.invalidCanvas("canvas \(Checked.describe(width))x\(Checked.describe(height)) at scale \(Checked.describe(options.scale)) is empty or not a size")
        }
        let clamp = { (v: Double) in Int(min(v, 1e15)) }
        let side = options.format.maxSide
        guard w <= Double(side), h <= Double(side) else {
            throw RenderError.sideTooLong(width: clamp(w), height: clamp(h), limit: side, format: options.format)
        }
        guard w * h <= Double(options.maxPixels) else {
            throw RenderError.canvasTooLarge(width: clamp(w), height: clamp(h), limit: options.maxPixels)
        }
        return (Int(w), Int(h))
    }

    /// One layout on its canvas (PNG or PDF bytes): a scene of one text item.
    public static func render(_ layout: Layout, options: RenderOptions) throws -> [UInt8] {
        let geometry = try geometry(for: layout, options: options)
        return try render(scene(PlacedText(layout: layout, x: geometry.originX, y: geometry.originY, paint: paint(options)),
                                geometry), options: options)
    }

    /// One restricted layout on its canvas: the lines after the visible ones blurred.
    public static func render(_ restricted: RestrictedText, options: RenderOptions) throws -> [UInt8] {
        let geometry = try geometry(for: restricted.layout, options: options)
        return try render(scene(PlacedText(restricted: restricted, x: geometry.originX, y: geometry.originY, paint: paint(options)),
                                geometry), options: options)
    }

    private static func scene(_ text: PlacedText, _ geometry: CanvasGeometry) -> Scene {
        Scene(width: geometry.width, height: geometry.height, background: .color(geometry.background), items: [.text(text)])
    }

    private static func paint(_ options: RenderOptions) -> TextPaint {
        TextPaint(color: options.textColor, highlight: options.highlight, shadow: options.shadow, stroke: options.stroke)
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
