import Render
import Typeset

/// A long text on pages: where each page's lines, header and footer go. The text is laid out
/// to `PagedText.wrapWidth` a few paragraphs at a time, once (a long text's lines wait in a
/// temporary file between measuring and drawing), and each page shows its lines as a block of their own, so a highlight split
/// by a page break closes on both pages with the same corner rules as a whole block.
package struct PagedText {
    package struct Page: Sendable {
        /// 1-based.
        package var number: Int
        /// Lines of the whole text.
        package var lines: Range<Int>
        /// Text y of the page's first shown line: it is drawn at `textOrigin.y`.
        package var top: Double
    }

    /// One page's text, moved so the page's first shown line is at y 0.
    package struct Body {
        package var layout: Layout
        /// Restricted mode: the same lines, hidden from the page's first hidden line on.
        package var restricted: RestrictedText?
    }

    package let setup: PageSetup
    /// The pages written (at most `setup.maxPages`).
    package let pages: [Page]
    /// Pages the whole text needs.
    package let totalPages: Int
    /// Where the text block's top-left corner sits on every page, in points.
    package let textOrigin: (x: Double, y: Double)
    package var restriction: PageRestriction? { source.restriction }
    package var droppedMarks: Int { source.droppedMarks }
    /// The body's font size (a span's em lengths resolve against it).
    package var fontSize: Double { source.style.size }
    /// Whether the laid-out lines wait in a temporary file between measuring and drawing.
    var linesSpooled: Bool { source.isSpooled }
    let bands: Bands
    private let source: ChunkedText

    /// The widest text block the page has room for, with the highlight's padding inside the
    /// margins.
    package static func wrapWidth(_ setup: PageSetup, highlight: HighlightPaint?) -> Double {
        setup.size.width - setup.margins.left - setup.margins.right - 2 * (highlight?.reach.x ?? 0)
    }

    /// Lays `text` out with `style` (its width at most `wrapWidth`) and breaks it into pages.
    /// `decorationHeight` is the header's and footer's line height.
    package init(_ text: String, typesetter: Typesetter, style: TypesetStyle, setup: PageSetup, highlight: HighlightPaint?,
                restriction: PageRestriction?, decorationHeight: Double) throws {
        try self.init(text, typesetter: typesetter, style: style, setup: setup, highlight: highlight, restriction: restriction,
                      decorationHeight: decorationHeight, keepBytes: ChunkedText.keepBytes)
    }

    /// The same, keeping layouts in memory for texts up to `keepBytes` (tests make it small).
    init(_ text: String, typesetter: Typesetter, style: TypesetStyle, setup: PageSetup, highlight: HighlightPaint?,
         restriction: PageRestriction?, decorationHeight: Double, keepBytes: Int) throws {
        try setup.validate()
        guard PagedText.wrapWidth(setup, highlight: highlight) > 0 else {
            throw PageError("page-margin", "no room for text between the margins and the highlight's padding")
        }
        self.setup = setup
        bands = Bands(setup: setup, decorationHeight: decorationHeight)
        let pad = highlight?.reach ?? (x: 0, y: 0)
        let height = setup.size.height - bands.top - bands.bottom - 2 * pad.y
        guard height > 0 else { throw PageError("page-margin", "no room for text on the page") }
        textOrigin = (setup.margins.left + pad.x, bands.top + pad.y)
        var source = ChunkedText(text, typesetter: typesetter, style: style, restriction: restriction, keepBytes: keepBytes,
                                 spoolFolder: setup.spoolFolder)
        let boxes = try source.measure()
        self.source = source
        let broken = boxes.isEmpty ? [PageBreaker.Page(lines: 0..<0, top: 0)]
            : try PageBreaker.paginate(boxes, height: height, orphans: setup.orphans, widows: setup.widows)
        totalPages = broken.count
        pages = broken.prefix(setup.maxPages ?? broken.count).enumerated().map {
            Page(number: $0.offset + 1, lines: $0.element.lines, top: $0.element.top)
        }
    }

    /// Each written page's text, in order, a chunk at a time (kept, or read back): only the
    /// chunks the current page needs are held.
    package func forEachPage(_ body: (Page, Body) throws -> Void) throws {
        var loaded: [(index: Int, piece: ChunkedText.Piece)] = []
        // The next chunks, read back (or laid out again) on the other cores while this page
        // is drawn: one chunk ahead per core keeps the cores busy.
        var ahead: [PendingPiece] = []
        for page in pages {
            let first = source.chunk(ofLine: page.lines.lowerBound)
            let last = source.chunk(ofLine: max(page.lines.lowerBound, page.lines.upperBound - 1))
            loaded.removeAll { $0.index < first }
            for i in first...last where !loaded.contains(where: { $0.index == i }) {
                ahead.removeAll { $0.index < i }
                loaded.append((i, try ahead.first?.index == i ? ahead.removeFirst().piece() : source.piece(i)))
            }
            while ChunkWork.lanes > 1, ahead.count < ChunkWork.lanes {
                let next = (ahead.last?.index ?? last) + 1
                guard next < source.chunks.count, source.needsWork(next) else { break }
                ahead.append(PendingPiece(next, of: source))
            }
            let ranges = loaded.map { chunk -> Range<Int> in
                let base = source.chunks[chunk.index].firstLine
                let local = (page.lines.lowerBound - base)..<(page.lines.upperBound - base)
                return local.clamped(to: 0..<chunk.piece.layout.lines.count)
            }
            let pieces = zip(loaded, ranges).filter { !$0.1.isEmpty || loaded.count == 1 }
            try body(page, try assemble(page, pieces.map { ($0.0.piece, $0.1, source.chunks[$0.0.index].dy - page.top) }))
        }
    }

    /// The page's body from its pieces (each with its lines and its move to the page), joined
    /// once: scrambled pieces stay a scrambled layout, so the restriction can trust them.
    private func assemble(_ page: Page, _ pieces: [(piece: ChunkedText.Piece, lines: Range<Int>, dy: Double)]) throws -> Body {
        guard let restriction = source.restriction else {
            return Body(layout: Layout.joined(pieces.map { ($0.piece.layout, $0.lines, $0.dy) }), restricted: nil)
        }
        let hidden = restriction.restriction
        let visible = min(max(hidden.visibleLines - page.lines.lowerBound, 0), page.lines.count)
        let onPage = try Restriction(visibleLines: visible, sigma: hidden.sigma, feather: hidden.feather)
        let scrambled = pieces.compactMap { piece -> (layout: ScrambledLayout, lines: Range<Int>, dy: Double)? in
            if case let .scrambled(s) = piece.piece { return (s, piece.lines, piece.dy) } else { return nil }
        }
        let restricted = scrambled.count == pieces.count
            ? try RestrictedText(scrambled: ScrambledLayout.joined(scrambled), restriction: onPage)
            : RestrictedText(realGlyphs: Layout.joined(pieces.map { ($0.piece.layout, $0.lines, $0.dy) }), restriction: onPage)
        return Body(layout: restricted.layout, restricted: restricted)
    }

    /// The header and footer bands: in the margins when they are tall enough, else the text
    /// area gives up the room they need.
    struct Bands {
        var top: Double
        var bottom: Double

        init(setup: PageSetup, decorationHeight: Double) {
            let need = decorationHeight * 2
            top = setup.header == nil ? setup.margins.top : max(setup.margins.top, need)
            bottom = setup.pageNumbers == nil ? setup.margins.bottom : max(setup.margins.bottom, need)
        }
    }
}
