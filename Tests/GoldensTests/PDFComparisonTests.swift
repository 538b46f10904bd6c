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

    @Test func wordDiffKeepsContext() {
        let changes = WordDiff.changes("a b c d e f".split(separator: " ").map(String.init), "a b x d e f g".split(separator: " ").map(String.init))
        #expect(changes == [WordDiff.Change(before: ["a", "b"], removed: ["c"], added: ["x"]), WordDiff.Change(before: ["d", "e", "f"], removed: [], added: ["g"])])
        #expect(WordDiff.changes(["same"], ["same"]).isEmpty)
    }
}
