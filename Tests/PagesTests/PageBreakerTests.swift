import Pages
import Testing

/// Page breaking over line boxes: numbers in, page ranges out.
struct PageBreakerTests {
    /// `counts[i]` lines of height 10 in paragraph i, stacked.
    func boxes(_ counts: [Int], blank: Set<Int> = []) -> [PageBreaker.Box] {
        var out: [PageBreaker.Box] = []
        for (p, n) in counts.enumerated() {
            for _ in 0..<n {
                let top = Double(out.count) * 10
                out.append(PageBreaker.Box(top: top, bottom: top + 10, paragraph: p, blank: blank.contains(p)))
            }
        }
        return out
    }

    @Test func fillsPagesAndCoversEveryLineOnce() throws {
        let pages = try PageBreaker.paginate(boxes([3, 4, 5, 2]), height: 50, orphans: 1, widows: 1)
        #expect(pages.map(\.lines) == [0..<5, 5..<10, 10..<14])
        #expect(pages.map(\.top) == [0, 50, 100])
    }

    /// A heading (its lines keep with the next) at a page's foot goes over with what it heads,
    /// unless it would leave the page empty.
    @Test func headingsKeepWithTheNextLine() throws {
        var lines = boxes([4, 1, 3])
        lines[4].keepWithNext = true  // paragraph 1: a one-line heading
        let pages = try PageBreaker.paginate(lines, height: 50, orphans: 1, widows: 1)
        #expect(pages.map(\.lines) == [0..<4, 4..<8])
        // Without the flag the heading ends page 1.
        #expect(try PageBreaker.paginate(boxes([4, 1, 3]), height: 50, orphans: 1, widows: 1).map(\.lines) == [0..<5, 5..<8])
        // A page of headings only keeps them.
        var headings = boxes([1, 1, 1, 1, 1, 1])
        for i in 0..<5 { headings[i].keepWithNext = true }
        #expect(try PageBreaker.paginate(headings, height: 50, orphans: 1, widows: 1).map(\.lines) == [0..<5, 5..<6])
    }

    @Test func widowsPullALineOver() throws {
        // Paragraph 1 has lines 3...7; 5 fit on page 1 (0..<5) leaving 3 for the next: fine.
        // With 6 lines per page, 3 + 3 of paragraph 1 fit, leaving 2: widows 3 pulls one over.
        let pages = try PageBreaker.paginate(boxes([3, 5]), height: 60, orphans: 2, widows: 3)
        #expect(pages.map(\.lines) == [0..<5, 5..<8])
    }

    @Test func orphansMoveTheParagraphStart() throws {
        // Page of 4 lines: paragraph 1 would start with one line at the bottom: orphans 2
        // sends it to the next page whole.
        let pages = try PageBreaker.paginate(boxes([3, 4]), height: 40, orphans: 2, widows: 2)
        #expect(pages.map(\.lines) == [0..<3, 3..<7])
    }

    @Test func aParagraphLongerThanThePageStillBreaks() throws {
        let pages = try PageBreaker.paginate(boxes([9]), height: 30, orphans: 2, widows: 2)
        #expect(pages.map(\.lines) == [0..<3, 3..<6, 6..<9])
    }

    @Test func blankLinesAtAPageTopTakeNoRoom() throws {
        // Paragraph 1 is a blank line falling at the top of page 2: page 2 starts at line 4's top.
        let pages = try PageBreaker.paginate(boxes([3, 1, 3], blank: [1]), height: 30, orphans: 1, widows: 1)
        #expect(pages.map(\.lines) == [0..<3, 3..<7])
        #expect(pages[1].top == 40)
    }

    @Test func aLineTallerThanThePageIsAnError() {
        #expect(throws: PageError.self) { try PageBreaker.paginate(boxes([1]), height: 5) }
    }

    @Test func pageSizesAndMarginsParse() throws {
        #expect(try PageSize(parsing: "A4") == .a4)
        #expect(try PageSize(parsing: "letter-landscape") == PageSize(width: 792, height: 612))
        let mm = try PageSize(parsing: "210x297mm")
        #expect(abs(mm.width - PageSize.a4.width) < 0.01 && abs(mm.height - PageSize.a4.height) < 0.01)
        #expect(try PageSize(parsing: "8.5inx11in") == .letter)
        #expect(try PageSize(parsing: "300x400") == PageSize(width: 300, height: 400))
        #expect(throws: PageError.self) { try PageSize(parsing: "a9") }
        #expect(throws: PageError.self) { try PageSize(parsing: "0x10") }
        #expect(try PageMargins(parsing: "10 20") == PageMargins(top: 10, right: 20, bottom: 10, left: 20))
        #expect(try PageMargins(parsing: "1in 2 3pt") == PageMargins(top: 72, right: 2, bottom: 3, left: 2))
        #expect(try PageMargins(parsing: "1 2 3 4") == PageMargins(top: 1, right: 2, bottom: 3, left: 4))
        #expect(throws: PageError.self) { try PageMargins(parsing: "1 2 3 4 5") }
        #expect(throws: PageError.self) { try PageMargins(parsing: "-3mm") }
    }
}
