import CCairo
import Typeset

/// A dot of the step indicator.
public struct DotMark: Sendable {
    public enum Style: Sendable {
        /// A filled disc (a step done, or every step when none is current).
        case filled
        /// Filled, with a ring around it.
        case current
        /// A ring (a step still to come).
        case hollow
    }

    public var centerX: Double
    public var centerY: Double
    public var diameter: Double
    public var style: Style

    public init(centerX: Double, centerY: Double, diameter: Double, style: Style) {
        self.centerX = centerX
        self.centerY = centerY
        self.diameter = diameter
        self.style = style
    }
}

/// A text block placed on the canvas: its layout's origin at (x, y).
public struct PlacedText: Sendable {
    public var layout: Layout
    public var x: Double
    public var y: Double

    public init(layout: Layout, x: Double, y: Double) {
        self.layout = layout
        self.x = x
        self.y = y
    }
}

/// Several text blocks and marks on one canvas (the steps layout).
public struct Scene: Sendable {
    public var width: Double
    public var height: Double
    public var texts: [PlacedText]
    public var dots: [DotMark]
    public var dotColor: Color
    /// A vertical line through the dots: x, from y, to y.
    public var connector: (x: Double, top: Double, bottom: Double)?

    public init(width: Double, height: Double, texts: [PlacedText], dots: [DotMark], dotColor: Color,
                connector: (x: Double, top: Double, bottom: Double)? = nil) {
        self.width = width
        self.height = height
        self.texts = texts
        self.dots = dots
        self.dotColor = dotColor
        self.connector = connector
    }
}

extension Renderer {
    public static func render(_ scene: Scene, options: RenderOptions) throws -> [UInt8] {
        let (pixelWidth, pixelHeight) = try pixelSize(width: scene.width, height: scene.height, options: options)
        let faces = try FontFaces(scene.texts.flatMap(\.layout.fonts))  // each font opened once
        try faces.checkGlyphs(of: scene.texts.map(\.layout))
        let output = try OutputSurface(format: options.format, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                                       opaque: options.background.alpha >= 1)
        let cr = output.context
        cairo_scale(cr, options.scale, options.scale)
        paint(cr, options.background)
        let c = scene.dotColor
        if let line = scene.connector, let d = scene.dots.first?.diameter {
            c.setSource(cr)
            cairo_set_line_width(cr, max(1, d / 5))
            cairo_move_to(cr, line.x, line.top)
            cairo_line_to(cr, line.x, line.bottom)
            cairo_stroke(cr)
        }
        for dot in scene.dots { drawDot(cr, dot, color: c, background: options.background) }
        for text in scene.texts {
            cairo_save(cr)
            cairo_translate(cr, text.x, text.y)
            try drawText(cr, text.layout, lines: text.layout.lines, faces: faces,
                         outline: options.highlight.map { text.layout.highlightOutline($0.style) }, options: options)
            cairo_restore(cr)
        }
        return try output.finish()
    }

    private static func drawDot(_ cr: OpaquePointer, _ dot: DotMark, color c: Color, background: Color) {
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
            // Replace (not cover) what is under the ring with the background, so the connector
            // does not show through even on a transparent background.
            disc(r)
            cairo_save(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            background.setSource(cr)
            cairo_fill(cr)
            cairo_restore(cr)
            outline()
        }
    }
}
