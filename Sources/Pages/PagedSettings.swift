import Card
import Render
import Typeset

extension PagedPDF {
    /// `text` on pages, set as a card's text block with `settings` would be (font, size,
    /// highlight, effects, restriction, colour by contrast with `background`), wrapped at the
    /// block's width or the page's room, whichever is narrower.
    public init(_ text: String, settings: BlockSettings, setup: PageSetup, fonts: FontContext, background: Color) throws {
        let (typesetter, font) = try settings.typesetter(library: fonts.library)
        let size = try settings.fontSize(spec: font)
        let highlight = settings.highlightPaint(fontSize: size)
        let room = PagedText.wrapWidth(setup, highlight: highlight)
        let style = settings.style(size: size, width: min(settings.width ?? room, room))
        let restriction = try settings.restriction().map {
            PageRestriction($0, scrambleSeed: settings.restrictMode == .blur ? nil : settings.scrambleSeed ?? ScrambleSeed.random())
        }
        let decorations = setup.header != nil || setup.pageNumbers != nil
            ? PageDecorations(typesetter: typesetter, bodyStyle: style) : nil
        let paged = try PagedText(text, typesetter: typesetter, style: style, setup: setup, highlight: highlight,
                                  restriction: restriction, decorationHeight: try decorations?.lineHeight() ?? 0)
        let paint = TextPaint(color: settings.textColor(highlight: highlight, background: background), highlight: highlight,
                              shadow: settings.shadow, stroke: settings.stroke)
        self.init(text: paged, paint: paint, background: background, decorations: decorations, fonts: fonts)
    }
}
