import PDFPost
import CCairo
import Highlight
import Support
import Typeset

package enum OutputFormat: String, CaseIterable, Sendable {
    case png, pdf, svg, jpeg, webp, avif

    /// The format a file name's extension asks for (.png, .pdf, .svg, .jpg/.jpeg, .webp).
    package init?(extension ext: String) {
        switch ext.lowercased() {
        case "jpg": self = .jpeg
        default: self.init(rawValue: ext.lowercased())
        }
    }

    /// The file extension written for this format.
    package var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// Every format's extension, for messages: ".png, .pdf, ... or .webp".
    package static var extensionList: String { OutputFormat.listed(allCases.map { "." + $0.fileExtension }) }

    /// Every format's name, for messages: "png, pdf, ... or webp".
    package static var nameList: String { OutputFormat.listed(allCases.map(\.rawValue)) }

    private static func listed(_ items: [String]) -> String {
        items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    /// The name people write: PNG, JPEG, WebP, SVG, PDF.
    package var displayName: String { self == .webp ? "WebP" : rawValue.uppercased() }

    /// A document of vector paths (PDF, SVG) rather than pixels: backgrounds, highlights and
    /// glyphs are drawn as paths, and only a restricted block's blur is an image in it.
    package var isVector: Bool { self == .pdf || self == .svg }

    /// The longest side an output can have: Cairo's image surfaces address 32,767 px (WebP
    /// 16,383); a PDF page is at most 14,400 pt (200 in) a side, and Cairo's PDF coordinates
    /// fail past it.
    package var maxSide: Int {
        switch self {
        case .png, .jpeg, .avif: 32_767
        case .webp: 16_383
        case .pdf: 14_400
        // No format limit, but a viewer rasterises it: the raster side limit keeps an SVG
        // something every viewer can show.
        case .svg: 32_767
        }
    }
}

/// How a scene becomes a file: the format, the output scale and limits, and the encoders'
/// settings. What is drawn, and where, is the scene's (built by the card library).
package struct RenderOptions: Sendable {
    package var format: OutputFormat = .png
    /// Output pixels per layout pixel (@2x, @3x): the layout does not change.
    package var scale: Double = 1
    package var maxPixels: Int = PixelLimit.defaultPixels
    /// PNG compression, JPEG/WebP quality.
    package var encoding = EncodeOptions()
    /// PDF document information.
    package var pdf = PDFMetadata()
    /// Checked before each scene item and before encoding.
    package var cancellation: Cancellation?
    /// What drawing and encoding allocate is reserved here first (`Scene.workingBytes`),
    /// after the size is checked against `maxPixels`.
    package var memory: MemoryBudget.Lease?
    /// The process renders this one image and exits (a CLI command), so the other core is
    /// free: glyphs are rasterised on a helper thread while the canvas is made, the canvas and
    /// the PNG's filtered rows are mapped in huge pages, and a large PNG is coded on two
    /// threads. A batch, the service and the library leave it off: their other cores are busy
    /// with other images, and they reuse freed memory instead.
    package var oneShot = false

    package init() {}
}

/// Draws scenes with the caller's fonts, and keeps what repeats between scenes (drawn
/// gradients and blurred photos): one per run (a CLI command, a batch, the service), shared by
/// its threads.
package final class Renderer: Sendable {
    package let fonts: FontContext
    let backgrounds: BackgroundCache

    /// A renderer over `fonts`, keeping at most `backgroundCacheBytes` of drawn backgrounds
    /// (four canvases at most) for the cards that repeat them.
    package init(fonts: FontContext, backgroundCacheBytes: Int = Int.max) {
        self.fonts = fonts
        backgrounds = BackgroundCache(byteLimit: backgroundCacheBytes)
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

    /// The highlight behind the layout, the shadow, the stroke, then the glyphs. Effects apply
    /// to the text only, never to the highlight.
    static func drawText(_ cr: OpaquePointer, _ layout: Layout, lines: [Line], faces: FontFaces, outline: Outline?,
                         paint: TextPaint, format: OutputFormat, scale: Double, textLayer: Bool? = nil,
                         role: TextRole? = nil, language: String? = nil, figures: ((Int) -> (() throws -> Void)?)? = nil,
                         cancellation: Cancellation? = nil, spans painter: SpanPainter? = nil) throws {
        if let highlight = paint.highlight, let outline {
            HighlightPainter.draw(cr, outline: outline, paint: highlight)
        }
        // `painter`: the same layout's and paint's, made once by a caller that draws a text in
        // many pieces (an animation), so each piece does not index every span again.
        let spans = painter ?? SpanPainter(layout: layout, paint: paint, cancellation: cancellation)
        try spans.drawHighlights(cr, lines: lines)
        if let shadow = paint.shadow {
            try TextEffects.drawShadow(cr, layout, lines: lines, faces: faces, shadow: shadow, scale: scale)
        }
        let painter = TextPainter(layout: layout, faces: faces, textLayer: textLayer ?? (format == .pdf), paints: spans.paints)
        if let role, format == .pdf {
            var tags = StructureTags(cr, role: role, language: language,
                                     paint: { try painter.draw(cr, lines: $0, color: paint.color, stroke: paint.stroke) },
                                     links: { try spans.drawLinks(cr, lines: $0) }, figure: figures ?? { _ in nil })
            try tags.draw(lines)
            spans.drawLines(cr, lines: lines)
        } else {
            try painter.draw(cr, lines: lines, color: paint.color, stroke: paint.stroke)
            if let figures {
                for paragraph in Set(lines.map(\.paragraph)).sorted() { try figures(paragraph)?() }
            }
            spans.drawLines(cr, lines: lines)
            // Links follow their text as siblings: Cairo 1.16 drops an element's own text once it
            // has a child element.
            if format == .pdf { try spans.drawLinks(cr, lines: lines) }
        }
    }

    static func paint(_ cr: OpaquePointer, _ color: Color) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        color.setSource(cr)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
