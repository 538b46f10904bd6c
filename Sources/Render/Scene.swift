import Motion
import Support
import Synchronization
import Typeset

/// What a scene is painted on.
package enum Background: Sendable {
    case color(Color)
    /// CSS `linear-gradient`: `angle` in degrees, 0 towards the top, 90 to the right, 180 (the
    /// default) to the bottom; the first stop at the start.
    case linearGradient(angle: Double, stops: [GradientStop])
    /// A picture scaled to cover (cropped, centred) or be contained (letterboxed over `color`),
    /// blurred by `blur` (Gaussian sigma, px) and darkened by a black overlay of opacity `dim`.
    case image(RasterImage, fit: ImageFit, blur: Sigma, dim: Fraction, color: Color)
}

package struct GradientStop: Equatable, Sendable {
    package let color: Color
    /// 0...1 along the gradient line; nil spreads the stop evenly between its neighbours.
    package let position: Double?
    package init(color: Color, position: Double? = nil) throws(ValueError) {
        self.color = color
        self.position = try position.map { v throws(ValueError) in try Fraction(v, "gradient stop position").value }
    }
}

package enum ImageFit: String, CaseIterable, Sendable {
    case cover, contain
}

/// Straight 8-bit RGBA pixels, rows top to bottom.
package struct RasterImage: Sendable {
    /// The pixels, straight RGBA.
    package let image: RGBAImage
    package var width: Int { image.width }
    package var height: Int { image.height }
    package var pixels: [UInt8] { image.pixels }
    /// Unique per decoded picture (copies share it): what caches of drawn backgrounds key on.
    package let identity: UInt64

    package init(width: Int, height: Int, pixels: [UInt8]) throws(ValueError) {
        // Sides bounded first, so the product cannot overflow.
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max),
              pixels.count == width * height * 4 else {
            throw ValueError("image", "\(width)x\(height) with \(pixels.count) bytes", expected: "4 bytes a pixel for a non-empty size")
        }
        image = RGBAImage(width: width, height: height, pixels: pixels)
        identity = RasterImage.counter.add(1, ordering: .relaxed).newValue
    }

    /// A decoded or generated image, checked as above.
    package init(_ image: RGBAImage) throws(ValueError) {
        try self.init(width: image.width, height: image.height, pixels: image.pixels)
    }

    private static let counter = Atomic<UInt64>(0)
}

/// A blurred, offset copy of the glyphs under them.
package struct TextShadow: Equatable, Sendable {
    package let dx: Double, dy: Double
    package let blur: Sigma
    package let color: Color
    package init(dx: Double, dy: Double, blur: Double, color: Color) throws(ValueError) {
        self.dx = try Checked.length(dx, "shadow dx", signed: true)
        self.dy = try Checked.length(dy, "shadow dy", signed: true)
        self.blur = try Sigma(blur, "shadow blur")
        self.color = color
    }
}

/// The glyph outlines stroked `width` px outward, under the fill.
package struct TextStroke: Equatable, Sendable {
    package let width: Double
    package let color: Color
    package init(width: Double, color: Color) throws(ValueError) {
        self.width = try Checked.length(width, "stroke width")
        self.color = color
    }
}

/// How one text block is painted.
package struct TextPaint: Sendable {
    package var color: Color
    package var highlight: HighlightPaint?
    package var shadow: TextShadow?
    package var stroke: TextStroke?
    /// Paints of the layout's tagged spans (`Layout.spans` tags index this).
    package var spans: [SpanPaint] = []
    package init(color: Color = .black, highlight: HighlightPaint? = nil, shadow: TextShadow? = nil, stroke: TextStroke? = nil) {
        self.color = color
        self.highlight = highlight
        self.shadow = shadow
        self.stroke = stroke
    }
}

extension TextPaint {
    /// How far this paint's ink may reach past a line's box, either way: the stroke, the
    /// shadow's offset and blur, the block's and the spans' highlights.
    var inkReach: Double {
        var reach = stroke?.width ?? 0
        if let shadow { reach += max(abs(shadow.dx), abs(shadow.dy)) + 3 * shadow.blur.value }
        reach += ([highlight] + spans.map(\.highlight)).compactMap { $0.map { max($0.reach.x, $0.reach.y) } }.max() ?? 0
        return reach
    }
}

/// A text block placed on the canvas: its layout's origin at (x, y).
package struct PlacedText: Sendable {
    package let layout: Layout
    package let x: Double
    package let y: Double
    package let paint: TextPaint
    /// Restricted content: lines from `visibleLines` on are blurred (set only from a
    /// `RestrictedText`, whose hidden glyphs are scrambled unless chosen otherwise).
    package private(set) var restriction: Restriction?
    /// Its place in a tagged PDF's structure tree; nil for page furniture (a page number, a
    /// header), which is in no element and so marked as an Artifact.
    package var role: TextRole? = .block(.p)
    /// Its language (BCP 47), when the block names one: a tagged PDF's elements carry it
    /// where it differs from the document's.
    package var language: String?
    /// Pictures in the text's flow, by the (empty) paragraph they stand in, in the text's own
    /// coordinates: drawn where that paragraph comes, so a tagged PDF's Figure is in reading
    /// order. Only `.image` items.
    package var figures: [Int: SceneItem] = [:]

    package init(layout: Layout, x: Double, y: Double, paint: TextPaint = TextPaint()) throws(ValueError) {
        self.layout = layout
        self.x = try Checked.length(x, "text x", signed: true)
        self.y = try Checked.length(y, "text y", signed: true)
        self.paint = paint
    }

    package init(restricted: RestrictedText, x: Double, y: Double, paint: TextPaint = TextPaint()) throws(ValueError) {
        try self.init(layout: restricted.layout, x: x, y: y, paint: paint)
        restriction = restricted.restriction
    }
}

/// A text block's kind of structure element in a tagged PDF.
package enum StructureRole: String, CaseIterable, Sendable {
    /// A paragraph (P).
    case p
    /// A heading of level 1 to 6 (H1 ... H6).
    case h1, h2, h3, h4, h5, h6
    /// An item of a list (LI with its LBody, inside an L with the items around it); found in
    /// a long text, not a block's option.
    case li
    /// A quoted paragraph (BlockQuote) and a block of code (Code), from Markdown.
    case blockQuote, code
    /// No element: the block is decoration (a watermark, a repeated label), an Artifact a
    /// reader skips. A block's option only; its text is in no structure element.
    case artifact

    /// What a block's `role` may be.
    package static let allCases: [StructureRole] = [.p, .h1, .h2, .h3, .h4, .h5, .h6, .artifact]

    /// The standard structure type's name.
    var tagName: String {
        switch self {
        case .blockQuote: "BlockQuote"
        case .code: "Code"
        default: rawValue.uppercased()
        }
    }

    /// The heading of `level` (1 to 6, clamped).
    package static func heading(_ level: Int) -> StructureRole { [.h1, .h2, .h3, .h4, .h5, .h6][min(max(level, 1), 6) - 1] }
}

/// How a text item's lines go into a tagged PDF's structure tree.
package enum TextRole: Sendable, Equatable {
    /// The whole block is one element (a heading); a paragraph block is a P per paragraph.
    case block(StructureRole)
    /// An element per paragraph (by `Line.paragraph`): P, or the role given for it; a list
    /// item's label (bytes of the text) is its Lbl, the rest its LBody; `depths` nests lists
    /// (1, the default: a top-level list's item).
    case paragraphs([Int: StructureRole], labels: [Int: Range<Int>] = [:], depths: [Int: Int] = [:])

    /// The lines in runs of one element each, with its role.
    func groups(_ lines: [Line]) -> [(role: StructureRole, lines: ArraySlice<Line>)] {
        switch self {
        case .block(.p): return TextRole.paragraphs([:]).groups(lines)
        case let .block(role): return lines.isEmpty ? [] : [(role, lines[...])]
        case let .paragraphs(roles, _, _):
            var out: [(role: StructureRole, lines: ArraySlice<Line>)] = []
            var start = 0
            for i in lines.indices where i == lines.count - 1 || lines[i + 1].paragraph != lines[i].paragraph {
                out.append((roles[lines[i].paragraph] ?? .p, lines[start...i]))
                start = i + 1
            }
            return out
        }
    }
}

/// A dot of the step indicator.
package struct DotMark: Sendable {
    package enum Style: Sendable {
        /// A filled disc (a step done, or every step when none is current).
        case filled
        /// Filled, with a ring around it.
        case current
        /// A ring (a step still to come).
        case hollow
    }

    package var centerX: Double
    package var centerY: Double
    package var diameter: Double
    package var style: Style

    package init(centerX: Double, centerY: Double, diameter: Double, style: Style) {
        self.centerX = centerX
        self.centerY = centerY
        self.diameter = diameter
        self.style = style
    }
}

/// One thing drawn on a scene, in order (later on top). Open: new kinds are new cases.
package enum SceneItem: Sendable {
    case text(PlacedText)
    /// Step dots in one colour and a connector line between them (x, from y, to y).
    case dots([DotMark], color: Color, connector: (x: Double, top: Double, bottom: Double)?)
    /// A picture drawn into the box (scaled, aspect kept by the caller), corners rounded by `radius`.
    /// A picture; in a tagged PDF a Figure with `alt` as its alternative text, or in no element
    /// without one (decoration).
    /// `vector`, when given, is drawn instead of the pixels in PDF and SVG outputs (an SVG
    /// picture replayed as paths; the pixels remain for raster layers such as a blur).
    /// `window`, when given, says the pixels are only that part of the picture (the part the
    /// canvas shows); the box and its rounded corners are still the whole picture's.
    case image(RasterImage, x: Double, y: Double, width: Double, height: Double, radius: Double, alt: String? = nil,
               vector: VectorPicture? = nil, window: RasterWindow? = nil)
}

/// Everything on one canvas.
package struct Scene: Sendable {
    package var width: Double
    package var height: Double
    package var background: Background
    package var items: [SceneItem]
    /// The effects of animated items, by index into `items` (empty: a still card).
    package var motion: [Int: [EffectSpec]] = [:]

    package init(width: Double, height: Double, background: Background, items: [SceneItem]) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }

    /// Every font file the scene's text uses, once each.
    package var fontFiles: Set<String> { Set(layouts.flatMap { $0.fonts.map(\.file) }) }

    /// What a reader sees, one part per text or picture in drawing order (a stack's children
    /// and each step their own): a text's shown lines joined by a space (a restricted block's
    /// hidden lines never), a picture's alternative text. Empty parts are left out.
    package var visibleParts: [String] {
        items.compactMap { item -> String? in
            switch item {
            case let .text(text):
                let shown = text.restriction.map { text.layout.lines.prefix($0.visibleLines) } ?? text.layout.lines[...]
                let part = shown.map(\.text.trimmed).filter { !$0.isEmpty }.joined(separator: " ")
                return part.isEmpty ? nil : part
            case let .image(_, _, _, _, _, _, alt, _, _):
                return alt.map(\.trimmed).flatMap { $0.isEmpty ? nil : $0 }
            case .dots:
                return nil
            }
        }
    }

    /// The visible parts on one line, whitespace collapsed (an SVG's title).
    package var visibleText: String {
        visibleParts.joined(separator: " ").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Every layout drawn, for opening fonts once.
    var layouts: [Layout] {
        items.compactMap { if case let .text(text) = $0 { return text.layout } else { return nil } }
    }
}
