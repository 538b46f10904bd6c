import Highlight
import Render
import TestSupport
import Typeset

/// The renderer tests' one font context, over the pinned fonts.
let testFonts = try! FontContext(library: Fixtures.library)

/// One laid-out text centred on a canvas, for the renderer's own tests: the scene a one-block
/// card would build, without the card library (these tests start from a `Layout`).
struct TextCanvas {
    var format: OutputFormat = .png
    var textColor: Color = .black
    var background: Color = .white
    /// Space around the text when the canvas fits it.
    var margin = 32.0
    var canvas: (width: Double, height: Double)?
    var scale = 1.0
    var maxPixels = 100_000_000
    var highlight: HighlightPaint?
    var shadow: TextShadow?
    var stroke: TextStroke?
    var fonts = testFonts

    /// The canvas size and the text's top-left corner.
    func geometry(_ layout: Layout) -> (width: Double, height: Double, x: Double, y: Double) {
        let (padX, padY) = highlight?.reach ?? (0, 0)
        let width = canvas?.width ?? layout.width + 2 * (margin + padX)
        let height = canvas?.height ?? layout.height + 2 * (margin + padY)
        return (width, height, (width - layout.width) / 2, (height - layout.height) / 2)
    }

    var paint: TextPaint { TextPaint(color: textColor, highlight: highlight, shadow: shadow, stroke: stroke) }

    var options: RenderOptions {
        var options = RenderOptions()
        options.format = format
        options.scale = scale
        options.maxPixels = maxPixels
        return options
    }

    func render(_ layout: Layout) throws -> [UInt8] {
        let g = geometry(layout)
        return try render(.text(try PlacedText(layout: layout, x: g.x, y: g.y, paint: paint)), g)
    }

    func render(_ restricted: RestrictedText) throws -> [UInt8] {
        let g = geometry(restricted.layout)
        return try render(.text(try PlacedText(restricted: restricted, x: g.x, y: g.y, paint: paint)), g)
    }

    private func render(_ item: SceneItem, _ g: (width: Double, height: Double, x: Double, y: Double)) throws -> [UInt8] {
        try Renderer(fonts: fonts).render(Scene(width: g.width, height: g.height, background: .color(background), items: [item]), options: options)
    }
}
