import Render
import Typeset

/// A long text on pages: where each page's lines, header and footer go. The text is laid
/// out once, to `PagedText.wrapWidth`; each page shows a slice of it, so a highlight split by
/// a page break closes on both pages with the same corner rules as a whole block.
public struct PagedText {
    public struct Page: Sendable {
        /// 1-based.
        public var number: Int
        public var lines: Range<Int>
        /// Layout y of the page's first shown line: it is drawn at `textOrigin.y`.
        public var top: Double
    }

    public let setup: PageSetup
    public let layout: Layout
    /// The pages written (at most `setup.maxPages`).
    public let pages: [Page]
    /// Pages the whole text needs.
    public let totalPages: Int
    /// Where the text block's top-left corner sits on every page, in points.
    public let textOrigin: (x: Double, y: Double)
    let bands: Bands

    /// The widest text block the page has room for, with the highlight's padding inside the
    /// margins.
    public static func wrapWidth(_ setup: PageSetup, highlight: HighlightPaint?) -> Double {
        let inset = 2 * ((highlight?.style.paddingX ?? 0) + (highlight?.strokeWidth ?? 0) / 2)
        return setup.size.width - setup.margins.left - setup.margins.right - inset
    }

    /// Breaks `layout` (wrapped to at most `wrapWidth`) into pages. `decoration` is the
    /// header's and footer's line height (their text's size); nil when there are none.
    public init(_ layout: Layout, setup: PageSetup, highlight: HighlightPaint?, decorationHeight: Double) throws {
        try setup.validate()
        guard PagedText.wrapWidth(setup, highlight: highlight) > 0 else {
            throw PageError("--page-margin: no room for text between the margins and the highlight's padding")
        }
        self.setup = setup
        self.layout = layout
        bands = Bands(setup: setup, decorationHeight: decorationHeight)
        let padX = (highlight?.style.paddingX ?? 0) + (highlight?.strokeWidth ?? 0) / 2
        let padY = (highlight?.style.paddingY ?? 0) + (highlight?.strokeWidth ?? 0) / 2
        let height = setup.size.height - bands.top - bands.bottom - 2 * padY
        guard height > 0 else { throw PageError("--page-margin: no room for text on the page") }
        textOrigin = (setup.margins.left + padX, bands.top + padY)
        let boxes = layout.lines.map { PageBreaker.Box(top: $0.top, bottom: $0.bottom, paragraph: $0.paragraph, blank: $0.isBlank) }
        let broken = layout.lines.isEmpty ? [PageBreaker.Page(lines: 0..<0, top: 0)]
            : try PageBreaker.paginate(boxes, height: height, orphans: setup.orphans, widows: setup.widows)
        totalPages = broken.count
        pages = broken.prefix(setup.maxPages ?? broken.count).enumerated().map {
            Page(number: $0.offset + 1, lines: $0.element.lines, top: $0.element.top)
        }
    }

    /// Page of each line (1-based), nil for lines on pages not written.
    public func page(ofLine index: Int) -> Int? {
        pages.first { $0.lines.contains(index) }?.number
    }

    /// The header and footer bands: in the margins when they are tall enough, else the text
    /// area gives up the room they need.
    struct Bands {
        var top: Double
        var bottom: Double
        var decorationHeight: Double

        init(setup: PageSetup, decorationHeight: Double) {
            self.decorationHeight = decorationHeight
            let need = decorationHeight * 2
            top = setup.header == nil ? setup.margins.top : max(setup.margins.top, need)
            bottom = setup.pageNumbers == nil ? setup.margins.bottom : max(setup.margins.bottom, need)
        }
    }
}
