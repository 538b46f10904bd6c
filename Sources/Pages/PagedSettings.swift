import Card
import Render
import Typeset

extension PagedPDF {
    /// `text` on pages, set as a card's text block with `settings` would be (font, size,
    /// highlight, effects, restriction, colour by contrast with `background`), wrapped at the
    /// block's width or the page's room, whichever is narrower.
    /// `picture` reads and decodes a Markdown picture's file (its path as written).
    package init(settings: BlockSettings, setup: PageSetup, fonts: FontContext, background: Color,
                randomSeed: @Sendable () -> UInt64 = { ScrambleSeed.random() },
                checkFontFile: (String) throws -> Void = { _ in },
                picture: (String) throws -> RasterImage = { throw PageError("markdown", "cannot read the picture \($0) here") }) throws {
        let (typesetter, font) = try settings.typesetter(library: fonts.library, check: checkFontFile)
        let size = try settings.fontSize(spec: font, fallback: PageSetup.defaultFontSize)
        // Plain text, markup or spans: spans flow across pages with the text.
        let styled = try settings.styledText(font: font, size: size)
        let highlight = settings.highlightPaint(fontSize: size)
        let room = PagedText.wrapWidth(setup, highlight: highlight)
        var style = settings.style(size: size, width: min(settings.width ?? room, room))
        // Pages keep an even pitch: a line falling back to taller fonts is as tall as its
        // neighbours (a larger span still grows its own line).
        style.evenPitch = true
        (style.runs, style.tags) = (styled.runs, styled.tags)
        let text = styled.text
        // Markdown: lists, quotes and code inset, labels hanging, space above each block,
        // pictures read and given room (at most the text's width and most of a page's height).
        var pictures: [Int: PagedPDF.Picture] = [:]
        // Each file decoded once, whichever front end reads it (a picture repeated a thousand
        // times is held once: its copies share the pixels).
        var decoded: [String: RasterImage] = [:]
        let markdown = try styled.markdown.map { document in
            try MarkdownLayout(document, text: text, labelWidth: { label in
                var measure = style
                (measure.width, measure.runs, measure.tags, measure.paragraphFormats) = (nil, [], [], [])
                return try typesetter.layout(label, style: measure).width / size
            }, figureHeight: { figure in
                let image: RasterImage
                do { image = try decoded[figure.source] ?? picture(figure.source) } catch {
                    throw PageError("markdown", "line \(figure.line): the picture \(figure.source): \(error)")
                }
                let maxHeight = 0.8 * (setup.size.height - setup.margins.top - setup.margins.bottom)
                var (width, height) = (Double(image.width) * 0.75, Double(image.height) * 0.75)  // 96 dpi
                let fit = min(1, room / width, maxHeight / height)
                (width, height) = (width * fit, height * fit)
                decoded[figure.source] = image
                pictures[figure.line] = PagedPDF.Picture(image: image, width: width, height: height, alt: figure.alt)
                return height / size
            })
        }
        style.paragraphFormats = markdown?.formats ?? []
        let restriction = try settings.restriction().map {
            PageRestriction($0, scrambleSeed: settings.restrictMode == .blur ? nil : settings.scrambleSeed ?? randomSeed())
        }
        let decorations = setup.header != nil || setup.pageNumbers != nil
            ? PageDecorations(typesetter: typesetter, bodyStyle: style) : nil
        let paged = try PagedText(text, typesetter: typesetter, style: style, setup: setup, highlight: highlight,
                                  restriction: restriction, decorationHeight: try decorations?.lineHeight() ?? 0)
        let paint = settings.textPaint(highlight: highlight, background: background, spans: styled.paints)
        self.init(text: paged, paint: paint, background: background, decorations: decorations, fonts: fonts)
        self.markdown = markdown
        self.pictures = pictures
    }
}
