import Render
import Steps
import Typeset
import Support

/// The step indicator as a block: texts typeset to the column width, packed by `StepsLayout`,
/// at a local origin. Used by card steps blocks and by `hlrender steps` (a one-block canvas).
struct StepsBlock {
    var placed: [PlacedStep]
    var layouts: [Layout]
    /// Each step's span paints (markup steps).
    var spanPaints: [[SpanPaint]]
    var dots: [DotMark]
    var connector: (x: Double, top: Double, bottom: Double)?
    /// Vertical highlight padding: a text's layout sits this far below its box's top.
    var padY: Double
    var height: Double

    /// Lays out `texts` in a block `width` wide; `style` gives the typeset style for a column
    /// width and alignment.
    static func layout(_ steps: [RichText], settings: BlockSettings, size: Double, width: Double, highlight: HighlightPaint?,
                       typesetter: Typesetter, fontSpec: FontSpec, style: (Double, Alignment) -> TypesetStyle) throws -> StepsBlock {
        let texts = steps.map(\.text)
        let layers = try steps.map { try $0.styled(block: settings, blockFont: fontSpec, size: size) }
        let dot = settings.dotSize ?? 0.5 * size, space = settings.gap ?? 0.5 * size
        let (padX, padY) = highlight?.reach ?? (0, 0)
        // The first step's direction decides the default side, as a right-to-left reader expects.
        let firstRTL = try Typesetter.startsRightToLeft(texts[0], direction: settings.direction)
        let frame = StepsFrame(canvasWidth: width, columnX: settings.column, dotSize: dot, gap: space + padX, margin: padX,
                               firstSide: settings.firstSide ?? (firstRTL ? .right : .left))
        guard frame.textColumnWidth > 0 else {
            throw OptionError("no room for text: the block is \(width) px wide, the dot column at \(frame.columnX)")
        }
        // Texts hug the dot column: right-aligned on the left, left-aligned on the right.
        let layouts = try texts.enumerated().map { i, text in
            var stepStyle = style(frame.textColumnWidth, settings.align ?? (frame.side(of: i) == .left ? .right : .left))
            (stepStyle.runs, stepStyle.tags) = (layers[i].runs, layers[i].tags)
            return try typesetter.layout(text, style: stepStyle)
        }
        let placed = StepsLayout.place(heights: layouts.map { $0.height + 2 * padY }, frame: frame, top: 0)
        let dots = placed.map { step -> DotMark in
            let style: DotMark.Style = settings.current.map { step.index + 1 < $0 ? .filled : step.index + 1 == $0 ? .current : .hollow } ?? .filled
            return DotMark(centerX: step.dot.x + dot / 2, centerY: step.dot.centerY, diameter: dot, style: style)
        }
        let connector = settings.connector && placed.count > 1
            ? (frame.columnX, placed.first!.dot.centerY, placed.last!.dot.centerY) : nil
        return StepsBlock(placed: placed, layouts: layouts, spanPaints: layers.map(\.paints), dots: dots, connector: connector, padY: padY,
                          height: StepsLayout.extent(placed, top: 0))
    }

    /// The scene items with the block's top-left at (x, y).
    func items(x: Double, y: Double, paint: TextPaint, dotColor: Color) throws -> [SceneItem] {
        let moved = dots.map { DotMark(centerX: $0.centerX + x, centerY: $0.centerY + y, diameter: $0.diameter, style: $0.style) }
        var items: [SceneItem] = [.dots(moved, color: dotColor, connector: connector.map { ($0.x + x, $0.top + y, $0.bottom + y) })]
        for (i, (step, layout)) in zip(placed, layouts).enumerated() {
            var stepPaint = paint
            stepPaint.spans = spanPaints[i]
            items.append(.text(try PlacedText(layout: layout, x: x + step.text.x, y: y + step.text.top + padY, paint: stepPaint)))
        }
        return items
    }

    /// Each step's dump entry (side, dot and text boxes, lines) with the block at (x, y), in
    /// output pixels: the same for `hlrender steps` and a card's steps block.
    func dump(x: Double, y: Double, scale: Double) -> [JSONValue] {
        func box(_ b: Box) -> JSONValue {
            .members([("x", LayoutJSON.px(x + b.x, scale)), ("top", LayoutJSON.px(y + b.top, scale)),
                      ("width", LayoutJSON.px(b.width, scale)), ("height", LayoutJSON.px(b.height, scale))])
        }
        return zip(placed, layouts).map { step, layout in
            .members([
                ("index", .number(Double(step.index))), ("side", .string(step.side.rawValue)),
                ("dot", box(step.dot)), ("text", box(step.text)),
                ("lines", .array(layout.lines.map {
                    LayoutJSON.line($0, fonts: layout.fonts, originX: x + step.text.x, originY: y + step.text.top + padY, scale: scale)
                })),
            ])
        }
    }
}
