import Foundation
import Goldens
import PDFGoldens
import Testing

private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pdf")

/// Two 100-page PDFs made by typst (Fixtures/pdf/make.py): one word changed on page 37, the
/// link of page 12 moved, a page 101 added. poppler rasterises and reads them.
@Suite struct PDFComparisonTests {
    static func load(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))) }

    @Test func exactlyTheChangesMadeAreReported() throws {
        var settings = PDFComparison.Settings()
        settings.jobs = 2
        let report = try PDFComparison.compare(expected: try Self.load("expected.pdf"), actual: try Self.load("actual.pdf"), settings: settings)
        #expect(report.expectedPages == 100 && report.actualPages == 101 && report.differs)
        let differing = report.pages.filter { $0.status != .same }
        #expect(differing.map(\.number) == [12, 37, 101])
        let p12 = differing[0], p37 = differing[1], p101 = differing[2]
        #expect(p12.words.isEmpty && p12.links.count == 1 && p12.links[0].hasPrefix("moved https://example.com/page/12 from"))
        #expect(p37.links.isEmpty && p37.words == [WordDiff.Change(before: ["over", "the", "lazy"], removed: ["dog"], added: ["cat"])])
        #expect(p37.status == .changed && p37.outcome?.verdict == .differ)
        #expect(p101.status == .new)
        #expect(report.bookmarks == ["added bookmark 'Section 101' -> page 101"])
    }

    @Test func aDocumentMatchesItself() throws {
        let bytes = try Self.load("expected.pdf")
        let report = try PDFComparison.compare(expected: bytes, actual: bytes, settings: PDFComparison.Settings())
        #expect(!report.differs && report.pages.allSatisfy { $0.status == .same })
    }

    @Test func notAPDFIsAnErrorNamingTheSide() throws {
        #expect(throws: PDFError.self) {
            try PDFComparison.compare(expected: try Self.load("expected.pdf"), actual: Array("%PDF-1.4 nothing".utf8), settings: PDFComparison.Settings())
        }
        do {
            _ = try PDFComparison.compare(expected: Array("%PDF-x".utf8), actual: try Self.load("actual.pdf"), settings: PDFComparison.Settings())
        } catch {
            #expect("\(error)".hasPrefix("expected: "))
        }
    }

    /// typst's flowing text (Fixtures/pdf/make.py): a sentence put in on page 2 of 7 pushes
    /// words over every page break after it. Page 2 says what was written, pages 3 to 7 that
    /// they reflowed and how many words crossed each break, none that its text changed (a
    /// page-by-page diff reported every page's first and last words).
    @Test func aSentencePutInIsToldOnItsPageAndThePagesAfterReflow() throws {
        let report = try PDFComparison.compare(expected: try Self.load("flow-expected.pdf"), actual: try Self.load("flow-actual.pdf"),
                                               settings: PDFComparison.Settings())
        #expect(report.pages.map(\.status) == [.same] + Array(repeating: .changed, count: 6))
        let sentence = "and here a new sentence was written into the second page".split(separator: " ").map(String.init)
        #expect(report.pages[1].words == [WordDiff.Change(before: ["papa197", "quebec198", "romeo199"], removed: [], added: sentence)])
        #expect(report.pages[1].reflowed == "6 words to page 3")
        #expect(report.pages[2].reflowed == "6 words from page 2, 5 words to page 4")
        #expect(report.pages[6].reflowed == "6 words from page 6")
        #expect(report.pages[2...].allSatisfy { $0.words.isEmpty && $0.message.contains("reflowed: ") })
        #expect(report.pages[1].message.contains("text: …papa197 quebec198 romeo199 {+and here"))
    }

    /// Past the words a comparison holds, each page keeps its own diff (what crossed its
    /// breaks is then listed as changed text, nothing is called reflowed).
    @Test func pastTheWordsHeldPagesAreDiffedAlone() throws {
        var settings = PDFComparison.Settings()
        settings.maxHeldWords = 500
        let report = try PDFComparison.compare(expected: try Self.load("flow-expected.pdf"), actual: try Self.load("flow-actual.pdf"),
                                               settings: settings)
        #expect(report.pages.allSatisfy { $0.reflowed.isEmpty })
        #expect(report.pages[2].status == .changed && !report.pages[2].words.isEmpty)
    }

    /// Words cross a page break only as text flows: from a page's last change to the next
    /// page's first; a page's furniture stays put; a word taken out on one page and one put in
    /// far away are two changes.
    @Test func onlyFlowingWordsCrossPageBreaks() {
        let split = { (pages: [String]) in pages.map { $0.split(separator: " ").map(String.init) } }
        let document = { (expected: [String], actual: [String]) in
            DocumentWords(pages: zip(split(expected), split(actual)).map { e, a in (e, a, WordDiff.aligned(e, a)) })
        }
        let pushed = document(["a b c 1/2", "d e 2/2"], ["a b X 1/2", "c d e 2/2"])
        #expect(pushed.changes(onPage: 0) == [WordDiff.Change(before: ["a", "b"], removed: [], added: ["X"])])
        #expect(pushed.reflow(ofPage: 0).description == "1 word to page 2")
        #expect(pushed.changes(onPage: 1).isEmpty && pushed.reflow(ofPage: 1).description == "1 word from page 1")
        let far = document(["x dog", "p", "q"], ["x cat", "p", "q dog"])
        #expect(far.changes(onPage: 0) == [WordDiff.Change(before: ["x"], removed: ["dog"], added: ["cat"])])
        #expect(far.changes(onPage: 2) == [WordDiff.Change(before: ["q"], removed: [], added: ["dog"])])
        #expect((0..<3).allSatisfy { far.reflow(ofPage: $0).description.isEmpty })
        // A total that changed ("1/2" -> "1/3") is a change on every page, not a move.
        let longer = document(["a 1/2", "b 2/2", ""], ["a 1/3", "b 2/3", "c 3/3"])
        #expect(longer.changes(onPage: 0) == [WordDiff.Change(before: ["a"], removed: ["1/2"], added: ["1/3"])])
    }

    @Test func wordDiffKeepsContext() {
        let changes = WordDiff.changes("a b c d e f".split(separator: " ").map(String.init), "a b x d e f g".split(separator: " ").map(String.init))
        #expect(changes == [WordDiff.Change(before: ["a", "b"], removed: ["c"], added: ["x"]), WordDiff.Change(before: ["d", "e", "f"], removed: [], added: ["g"])])
        #expect(WordDiff.changes(["same"], ["same"]).isEmpty)
    }
}
