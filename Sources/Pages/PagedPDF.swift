import Card
import Render
import Typeset
import Support

/// Sets the header and the page numbers: in the text's fonts, three quarters of its size.
package struct PageDecorations: Sendable {
    let typesetter: Typesetter
    let style: TypesetStyle

    package init(typesetter: Typesetter, bodyStyle: TypesetStyle) {
        self.typesetter = typesetter
        var style = TypesetStyle(size: max(6, (bodyStyle.size * 0.75).rounded()), direction: bodyStyle.direction,
                                 language: bodyStyle.language)
        style.features = bodyStyle.features
        style.variations = bodyStyle.variations
        self.style = style
    }

    /// One line's height at the decorations' size.
    package func lineHeight() throws -> Double { try typesetter.layout("0", style: style).height }

    func layout(_ text: String) throws -> Layout {
        var line = style
        line.maxLines = 1
        return try typesetter.layout(text, style: line)
    }
}

/// A paged text drawn into a PDF, page by page: each page is a scene (header, the page's
/// lines, footer) handed to `PDFDocument` and then dropped, so memory follows one page and
/// the file, not the document's layout.
package struct PagedPDF {
    package var text: PagedText
    package var paint: TextPaint
    package var background: Color
    package var decorations: PageDecorations?
    /// The fonts the text was set in, drawn with.
    package var fonts: FontContext
    /// One outline entry per paragraph that starts with "# " (visible lines only), or per
    /// Markdown heading (nested by level).
    package var bookmarks = true
    /// A Markdown text's blocks: their structure elements, headings and rules.
    package var markdown: MarkdownLayout?
    /// A Markdown picture as drawn: its pixels, size on the page and alternative text.
    package struct Picture: Sendable {
        var image: RasterImage
        var width: Double
        var height: Double
        var alt: String
    }
    /// The pictures, by their line in the Markdown source (`MarkdownLayout.Figure.line`).
    package var pictures: [Int: Picture] = [:]

    package init(text: PagedText, paint: TextPaint, background: Color, decorations: PageDecorations?, fonts: FontContext) {
        self.text = text
        self.fonts = fonts
        self.paint = paint
        self.background = background
        self.decorations = decorations
    }

    /// The PDF; `visit` sees each page's text as it is drawn (for a layout dump).
    /// With `stream`, the file goes there page by page and the result is empty.
    package func render(options: RenderOptions, stream: ((UnsafeRawBufferPointer) -> Bool)? = nil,
                       visit: (PagedText.Page, PagedText.Body) throws -> Void = { _, _ in }) throws -> [UInt8] {
        var options = options
        options.scale = 1
        // PDF/UA-1: a picture is a Figure with alternative text, or the file is refused.
        if options.pdf.standards.contains(.ua1), let figure = markdown?.figures.values.sorted(by: { $0.line < $1.line }).first(where: { $0.alt.isEmpty }) {
            throw PageError("markdown", "line \(figure.line): the picture \(figure.source) has no alt text, which PDF/UA-1 needs: write ![what it shows](\(figure.source))")
        }
        let document = try PDFDocument(options: options, fonts: fonts, stream: stream)
        // Markdown headings nest: each under the last heading of a lower level.
        var open: [(level: Int, id: Int32)] = []
        // Pages are cut from their chunks and made into scenes (fonts opened, glyphs checked) a
        // page or two ahead on a thread of their own, while this one has Cairo draw them (the
        // thread a long document waits for).
        try PageHandoff.run(depth: 2, produce: { (emit: ((PagedText.Page, PDFPage, [Heading])) throws -> Void) in
            try text.forEachPage { page, body in
                try visit(page, body)
                let found = headings(body)
                try emit((page, try document.page(scene(page, body, headings: found)), found))
            }
        }, consume: { page, prepared, found in
            try document.add(prepared)
            guard bookmarks else { return }
            for heading in found where markdown != nil || heading.level == 1 {
                while let last = open.last, last.level >= heading.level { open.removeLast() }
                let id = document.addBookmark(heading.title, page: page.number, y: heading.y, parent: open.last?.id)
                open.append((heading.level, id))
            }
        })
        return try document.finish()
    }

    /// The page's header, text and footer; `headings` are the page's (`headings(_:)`).
    func scene(_ page: PagedText.Page, _ body: PagedText.Body, headings: [Heading]) throws -> Scene {
        let size = text.setup.size
        let (x, y) = text.textOrigin
        var placed = try body.restricted.map { try PlacedText(restricted: $0, x: x, y: y, paint: paint) }
            ?? PlacedText(layout: body.layout, x: x, y: y, paint: paint)
        // A paragraph per element; one starting with "# " (up to "###### ") is a heading, one
        // starting with a bullet or a number is a list item.
        var items: [SceneItem] = []
        if let markdown {
            placed.role = .paragraphs(markdown.roles, labels: markdown.labels, depths: markdown.depths)
            placed.figures = figures(body, markdown)
            items += try decorations(body, markdown)
        } else {
            var roles = Dictionary(listItems(body).map { ($0, StructureRole.li) }, uniquingKeysWith: { a, _ in a })
            for heading in headings { roles[heading.paragraph] = .heading(heading.level) }
            placed.role = .paragraphs(roles)
        }
        items.append(.text(placed))
        let pages = text.pages.count
        if let decorations, let header = text.setup.header {
            items.append(try decoration(PageSetup.fill(header, page: page.number, pages: pages), decorations,
                                        band: (0, text.bands.top)))
        }
        if let decorations, let numbers = text.setup.pageNumbers {
            items.append(try decoration(PageSetup.fill(numbers, page: page.number, pages: pages), decorations,
                                        band: (size.height - text.bands.bottom, text.bands.bottom)))
        }
        return Scene(width: size.width, height: size.height, background: .color(background), items: items)
    }

    /// A line centred between the side margins and in its band.
    private func decoration(_ string: String, _ decorations: PageDecorations, band: (top: Double, height: Double)) throws -> SceneItem {
        let layout = try decorations.layout(string)
        let margins = text.setup.margins
        let x = margins.left + (text.setup.size.width - margins.left - margins.right - layout.width) / 2
        var placed = try PlacedText(layout: layout, x: x, y: band.top + (band.height - layout.height) / 2, paint: TextPaint(color: paint.color))
        placed.role = nil  // page furniture: an Artifact
        return .text(placed)
    }

    /// A heading on a page: its visible text, level, paragraph and y on the page.
    struct Heading {
        var title: String
        var level: Int
        var paragraph: Int
        var y: Double
    }

    /// The first line of each paragraph starting on the page (visible lines only).
    func paragraphStarts(_ body: PagedText.Body) -> [Int] {
        let lines = body.layout.lines
        let visible = body.restricted?.restriction.visibleLines ?? lines.count
        let utf8 = body.layout.text.utf8
        // A paragraph starts at the text's start or after a hard break (LF, CR, U+2029; the
        // break belongs to no line).
        let startsParagraph = { (line: Line) in
            let before = utf8[..<utf8.index(utf8.startIndex, offsetBy: line.start)]
            return before.isEmpty || [0x0A, 0x0D].contains(before.last!) || before.suffix(3).elementsEqual([0xE2, 0x80, 0xA9])
        }
        return (0..<min(visible, lines.count)).filter { i in i > 0 ? lines[i - 1].paragraph != lines[i].paragraph : startsParagraph(lines[i]) }
    }

    /// Paragraphs starting with a bullet ("- ", "* ", "• ", "– ") or a number ("1. ", "2) "):
    /// items of a list.
    func listItems(_ body: PagedText.Body) -> [Int] {
        let lines = body.layout.lines
        return paragraphStarts(body).compactMap { i in
            let text = lines[i].text
            let digits = text.prefix { $0.isASCII && $0.isNumber }.count
            let bullet = ["- ", "* ", "• ", "– "].contains { text.hasPrefix($0) }
            let numbered = (1...3).contains(digits) && [". ", ") "].contains { text.dropFirst(digits).hasPrefix($0) }
            return bullet || numbered ? lines[i].paragraph : nil
        }
    }

    /// The pictures whose paragraphs start on the page (visible lines only), at their
    /// paragraph's line, in the text's coordinates; a Figure with the alt text, or decoration
    /// without one.
    private func figures(_ body: PagedText.Body, _ markdown: MarkdownLayout) -> [Int: SceneItem] {
        guard !markdown.figures.isEmpty else { return [:] }
        var out: [Int: SceneItem] = [:]
        for i in paragraphStarts(body) {
            let line = body.layout.lines[i]
            guard let figure = markdown.figures[line.paragraph], let picture = pictures[figure.line] else { continue }
            out[line.paragraph] = .image(picture.image, x: line.x, y: line.top, width: picture.width, height: picture.height,
                                         radius: 0, alt: picture.alt.isEmpty ? nil : picture.alt)
        }
        return out
    }

    /// What Markdown's blocks show besides their text (page furniture, Artifacts in a tagged
    /// file), in the text's colour: a thin rule across the text's width for each thematic
    /// break, a bar beside each level of a quote, a tint behind code.
    private func decorations(_ body: PagedText.Body, _ markdown: MarkdownLayout) throws -> [SceneItem] {
        let (x, y) = text.textOrigin
        let right = text.setup.size.width - text.setup.margins.right
        let em = text.fontSize
        let shade = { (alpha: Double) in
            let c = paint.color
            let channels = [c.red, c.green, c.blue, alpha * c.alpha].map { UInt8(Checked.clamped($0 * 255, .toNearestOrAwayFromZero, in: 0...255)) }
            return try RasterImage(width: 1, height: 1, pixels: channels)
        }
        let (rule, bar, tint) = (try shade(0.45), try shade(0.35), try shade(0.07))
        // Each paragraph's visible lines on the page: top, bottom, left.
        var boxes: [Int: (top: Double, bottom: Double, left: Double)] = [:]
        let lines = body.layout.lines
        for line in lines.prefix(body.restricted?.restriction.visibleLines ?? lines.count) {
            let box = boxes[line.paragraph] ?? (line.top, line.bottom, line.x)
            boxes[line.paragraph] = (min(box.top, line.top), max(box.bottom, line.bottom), min(box.left, line.x))
        }
        var items: [SceneItem] = []
        for (paragraph, box) in boxes.sorted(by: { $0.key < $1.key }) {
            if markdown.rules.contains(paragraph) {
                items.append(.image(rule, x: x, y: y + (box.top + box.bottom) / 2, width: right - x, height: 0.75, radius: 0))
            }
            if markdown.code.contains(paragraph) {
                let left = x + box.left - 0.5 * em
                items.append(.image(tint, x: left, y: y + box.top - 0.2 * em, width: right - left, height: box.bottom - box.top + 0.4 * em,
                                    radius: 0.2 * em))
            }
            for level in 0..<min(markdown.quotes[paragraph] ?? 0, 8) {
                items.append(.image(bar, x: x + Double(level) * MarkdownLayout.quoteInset * em + 0.2 * em, y: y + box.top,
                                    width: 0.15 * em, height: box.bottom - box.top, radius: 0))
            }
        }
        return items
    }

    /// Paragraphs on the page that start with one to six "#" and a space: their visible text
    /// (after the marks), level, paragraph and y on the page. Markdown's headings are its own.
    func headings(_ body: PagedText.Body) -> [Heading] {
        let lines = body.layout.lines
        if let markdown {
            return paragraphStarts(body).compactMap { i in
                markdown.headings[lines[i].paragraph].flatMap { heading in
                    heading.title.isEmpty ? nil : Heading(title: heading.title, level: heading.level, paragraph: lines[i].paragraph,
                                                          y: text.textOrigin.y + lines[i].top)
                }
            }
        }
        let visible = body.restricted?.restriction.visibleLines ?? lines.count
        var found: [Heading] = []
        for i in paragraphStarts(body) {
            let marks = lines[i].text.prefix { $0 == "#" }.count
            guard (1...6).contains(marks), lines[i].text.dropFirst(marks).hasPrefix(" ") else { continue }
            var title = String(lines[i].text.dropFirst(marks + 1))
            var j = i + 1
            while j < visible, lines[j].paragraph == lines[i].paragraph {
                title += lines[j].text
                j += 1
            }
            let cleaned = title.trimmed
            if !cleaned.isEmpty { found.append(Heading(title: cleaned, level: marks, paragraph: lines[i].paragraph, y: text.textOrigin.y + lines[i].top)) }
        }
        return found
    }
}
