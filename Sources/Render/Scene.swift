import Support
import Synchronization
import Typeset

/// What a scene is painted on.
public enum Background: Sendable {
    case color(Color)
    /// CSS `linear-gradient`: `angle` in degrees, 0 towards the top, 90 to the right, 180 (the
    /// default) to the bottom; the first stop at the start.
    case linearGradient(angle: Double, stops: [GradientStop])
    /// A picture scaled to cover (cropped, centred) or be contained (letterboxed over `color`),
    /// blurred by `blur` (Gaussian sigma, px) and darkened by a black overlay of opacity `dim`.
    case image(RasterImage, fit: ImageFit, blur: Sigma, dim: Fraction, color: Color)
}

public struct GradientStop: Equatable, Sendable {
    public let color: Color
    /// 0...1 along the gradient line; nil spreads the stop evenly between its neighbours.
    public let position: Double?
    public init(color: Color, position: Double? = nil) throws(ValueError) {
        self.color = color
        self.position = try position.map { v throws(ValueError) in try Fraction(v, "gradient stop position").value }
    }
}

public enum ImageFit: String, CaseIterable, Sendable {
    case cover, contain
}

/// Straight 8-bit RGBA pixels, rows top to bottom.
public struct RasterImage: Sendable {
    /// The pixels, straight RGBA.
    public let image: RGBAImage
    public var width: Int { image.width }
    public var height: Int { image.height }
    public var pixels: [UInt8] { image.pixels }
    /// Unique per decoded picture (copies share it): what caches of drawn backgrounds key on.
    public let identity: UInt64

    public init(width: Int, height: Int, pixels: [UInt8]) throws(ValueError) {
        // Sides bounded first, so the product cannot overflow.
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max),
              pixels.count == width * height * 4 else {
            throw ValueError("image", "\(width)x\(height) with \(pixels.count) bytes", expected: "4 bytes a pixel for a non-empty size")
        }
        image = RGBAImage(width: width, height: height, pixels: pixels)
        identity = RasterImage.counter.add(1, ordering: .relaxed).newValue
    }

    /// A decoded or generated image, checked as above.
    public init(_ image: RGBAImage) throws(ValueError) {
        try self.init(width: image.width, height: image.height, pixels: image.pixels)
    }

    private static let counter = Atomic<UInt64>(0)
}

/// A blurred, offset copy of the glyphs under them.
public struct TextShadow: Equatable, Sendable {
    public let dx: Double, dy: Double
    public let blur: Sigma
    public let color: Color
    public init(dx: Double, dy: Double, blur: Double, color: Color) throws(ValueError) {
        self.dx = try Checked.length(dx, "shadow dx", signed: true)
        self.dy = try Checked.length(dy, "shadow dy", signed: true)
        self.blur = try Sigma(blur, "shadow blur")
        self.color = color
    }
}

/// The glyph outlines stroked `width` px outward, under the fill.
public struct TextStroke: Equatable, Sendable {
    public let width: Double
    public let color: Color
    public init(width: Double, color: Color) throws(ValueError) {
        self.width = try Checked.length(width, "stroke width")
        self.color = color
    }
}

/// How one text block is painted.
public struct TextPaint: Sendable {
    public var color: Color
    public var highlight: HighlightPaint?
    public var shadow: TextShadow?
    public var stroke: TextStroke?
    /// Paints of the layout's tagged spans (`Layout.spans` tags index this).
    public var spans: [SpanPaint] = []
    public init(color: Color = .black, highlight: HighlightPaint? = nil, shadow: TextShadow? = nil, stroke: TextStroke? = nil) {
        self.color = color
        self.highlight = highlight
        self.shadow = shadow
        self.stroke = stroke
    }
}

/// A text block placed on the canvas: its layout's origin at (x, y).
public struct PlacedText: Sendable {
    public let layout: Layout
    public let x: Double
    public let y: Double
    public let paint: TextPaint
    /// Restricted content: lines from `visibleLines` on are blurred (set only from a
    /// `RestrictedText`, whose hidden glyphs are scrambled unless chosen otherwise).
    public private(set) var restriction: Restriction?

    public init(layout: Layout, x: Double, y: Double, paint: TextPaint = TextPaint()) throws(ValueError) {
        self.layout = layout
        self.x = try Checked.length(x, "text x", signed: true)
        self.y = try Checked.length(y, "text y", signed: true)
        self.paint = paint
    }

    public init(restricted: RestrictedText, x: Double, y: Double, paint: TextPaint = TextPaint()) throws(ValueError) {
        try self.init(layout: restricted.layout, x: x, y: y, paint: paint)
        restriction = restricted.restriction
    }
}

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

/// One thing drawn on a scene, in order (later on top). Open: new kinds are new cases.
public enum SceneItem: Sendable {
    case text(PlacedText)
    /// Step dots in one colour and a connector line between them (x, from y, to y).
    case dots([DotMark], color: Color, connector: (x: Double, top: Double, bottom: Double)?)
    /// A picture drawn into the box (scaled, aspect kept by the caller), corners rounded by `radius`.
    case image(RasterImage, x: Double, y: Double, width: Double, height: Double, radius: Double)
}

/// Everything on one canvas.
public struct Scene: Sendable {
    public var width: Double
    public var height: Double
    public var background: Background
    public var items: [SceneItem]

    public init(width: Double, height: Double, background: Background, items: [SceneItem]) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }

    /// Every font file the scene's text uses, once each.
    public var fontFiles: Set<String> { Set(layouts.flatMap { $0.fonts.map(\.file) }) }

    /// Every layout drawn, for opening fonts once.
    var layouts: [Layout] {
        items.compactMap { if case let .text(text) = $0 { return text.layout } else { return nil } }
    }
}
