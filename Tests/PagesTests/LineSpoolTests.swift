import Render
import TestSupport
import Testing
import Typeset
@testable import Pages

/// A text longer than the in-memory limit is laid out once, its lines waiting in a temporary
/// file between measuring and drawing: every page must get exactly the lines it gets when the
/// layouts stay in memory.
@Suite struct LineSpoolTests {
    func pages(_ text: String, style: TypesetStyle, restriction: PageRestriction? = nil, keepBytes: Int) throws -> (PagedText, [[Line]]) {
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
        var setup = PageSetup(size: .a5)
        setup.pageNumbers = PageSetup.defaultNumberFormat
        let paged = try PagedText(text, typesetter: typesetter, style: style, setup: setup, highlight: nil, restriction: restriction,
                                  decorationHeight: 12, keepBytes: keepBytes)
        var lines: [[Line]] = []
        try paged.forEachPage { _, body in lines.append(body.layout.lines) }
        return (paged, lines)
    }

    @Test func spooledPagesAreTheKeptPages() throws {
        // Every corpus script, several 32 KB chunks.
        let parts = try ["ar", "en", "hi", "ja", "mixed", "ru", "zh"].map(Fixtures.corpusText)
        var text = ""
        while text.utf8.count < 150_000 { text += parts.joined(separator: "\n") + "\n" }
        for alignment in [Alignment.start, .justify] {
            let style = TypesetStyle(size: 11, width: 330, alignment: alignment)
            let (kept, keptLines) = try pages(text, style: style, keepBytes: 1 << 30)
            let (spooled, spooledLines) = try pages(text, style: style, keepBytes: 0)
            #expect(!kept.linesSpooled && spooled.linesSpooled)
            #expect(keptLines.count > 20 && spooled.totalPages == kept.totalPages)
            // The first page that differs, not two documents' worth of lines, when one does.
            let differing = zip(spooledLines, keptLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(differing == nil && spooledLines.count == keptLines.count, "\(alignment): page \((differing ?? -1) + 1) differs")
        }
    }

    /// Restricted pages scramble what was read back: the visible lines are the kept ones. The
    /// text is one chunk (shorter than a chunk's 32 KB): a long one-chunk text is spooled too,
    /// not laid out twice.
    @Test func restrictedSpooledPagesKeepTheVisibleLines() throws {
        let text = String(repeating: try Fixtures.corpusText("en") + "\n", count: 60)
        let style = TypesetStyle(size: 11, width: 330)
        let restriction = PageRestriction(try Restriction(visibleLines: 30, sigma: 11, feather: 0), scrambleSeed: 5)
        let (_, kept) = try pages(text, style: style, restriction: restriction, keepBytes: 1 << 30)
        let (paged, spooled) = try pages(text, style: style, restriction: restriction, keepBytes: 0)
        #expect(paged.linesSpooled)
        #expect(Array(spooled.joined().prefix(30)) == Array(kept.joined().prefix(30)), "the visible lines differ")
        #expect(spooled.joined().count == kept.joined().count)
    }
}
