import Codecs
import Compare
import Dispatch
import Goldens
import Support

/// Two PDFs compared as a reviewer would: the page count, each page rasterised by poppler at a
/// chosen resolution and compared through the one `Comparison` (metric, limits, why), each
/// page's words in order, its links (where they go and where they sit), and the outline.
package enum PDFComparison {
    package struct Settings: Sendable {
        /// Pixels per inch for the rasterised pages.
        package var dpi: Double = 72
        package var tolerance = GoldenTolerance()
        package var maxPixels = PixelLimit.defaultPixels
        /// Pages compared at once (each worker opens both documents itself).
        package var jobs = 1
        /// Keep PNGs of differing pages (expected, actual, difference) for a report.
        package var panels = false
        /// The most pages a document may have here.
        package var maxPages = 10_000
        /// Checked before each page: a service's deadline stops a long comparison.
        package var cancellation: Cancellation?
        /// The most words (both documents) held to read the documents across their pages: a
        /// hostile PDF's pages may each hold a hundred thousand; past this the pages are
        /// diffed one by one, as they are read.
        package var maxHeldWords = 4_000_000
        package init() {}
    }

    /// A page's status in the one vocabulary: `new` is a page only the actual document has,
    /// `missing` one only the expected document has.
    package typealias PageStatus = GoldenStatus

    package struct Page: Sendable {
        /// From 1.
        package var number: Int
        package var status: PageStatus = .same
        package var outcome: Comparison.Outcome?
        package var words: [WordDiff.Change] = []
        /// Words that crossed the page's breaks, read over the whole documents ("6 words
        /// from page 2, 5 words to page 4"): not text changes. Empty when none did (or the
        /// documents differ in too many places to match their words).
        package var reflowed = ""
        /// "moved https://x from (72, 700, 150, 712) to (72, 680, 150, 692)", "added ...", "removed ...".
        package var links: [String] = []
        package var expectedPNG: [UInt8]?
        package var actualPNG: [UInt8]?
        package var differencePNG: [UInt8]?
        /// Why, in one line: the image's kind and numbers, the text and link changes.
        package var message = ""
    }

    package struct Report: Sendable {
        package var expectedPages: Int
        package var actualPages: Int
        package var pages: [Page]
        /// Outline entries removed or added ("removed bookmark 'Intro' -> page 2").
        package var bookmarks: [String]

        package var differs: Bool { expectedPages != actualPages || !bookmarks.isEmpty || pages.contains { $0.status != .same && $0.status != .within } }
    }

    /// Whether bytes look like a PDF (what `compare` and the service dispatch on).
    package static func isPDF(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("%PDF-".utf8)) }

    package static func compare(expected: [UInt8], actual: [UInt8], settings: Settings) throws(PDFError) -> Report {
        let e: PDFFile, a: PDFFile
        do { e = try PDFFile(expected) } catch { throw PDFError("expected: \(error)") }
        do { a = try PDFFile(actual) } catch { throw PDFError("actual: \(error)") }
        let counts = (e.pageCount, a.pageCount)
        guard counts.0 <= settings.maxPages, counts.1 <= settings.maxPages else {
            throw PDFError("over \(settings.maxPages) pages (\(counts.0) and \(counts.1))")
        }
        let total = max(counts.0, counts.1)
        let state = Shared(count: total, maxHeldWords: settings.maxHeldWords)
        let jobs = min(max(1, settings.jobs), max(1, total))
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            // Each worker reads its own copies: a poppler document is not shared between threads.
            guard let pe = try? PDFFile(expected), let pa = try? PDFFile(actual) else { return }
            while !(settings.cancellation?.isCancelled ?? false), let index = state.take() {
                let (e, a) = (index < counts.0 ? pe.words(ofPage: index) : [], index < counts.1 ? pa.words(ofPage: index) : [])
                let words = (expected: e, actual: a, hunks: WordDiff.aligned(e, a))
                state.put(compare(page: index, pe, pa, words: words, counts: counts, settings: settings), words: words, at: index)
            }
        }
        if settings.cancellation?.isCancelled ?? false { throw PDFError("the comparison was cancelled") }
        var pages = try state.finished()
        // The words over the whole documents: a change where it is, the pages after it reflowed
        // (past `Settings.maxHeldWords`, each page keeps its own diff).
        let document = state.wordsDropped ? nil : DocumentWords(pages: state.words)
        for i in pages.indices where pages[i].status != .same && pages[i].status != .within {
            guard let document else { break }
            // A page only one side has is new or missing whole: where its words went or came
            // from is news, its words are not.
            if pages[i].status == .changed { pages[i].words = document.changes(onPage: i) }
            pages[i].reflowed = document.reflow(ofPage: i).description
        }
        for i in pages.indices { describe(&pages[i]) }
        return Report(expectedPages: counts.0, actualPages: counts.1, pages: pages,
                      bookmarks: bookmarkChanges(e.bookmarks(), a.bookmarks()))
    }

    /// The page's line: the image's kind and numbers, then the text, reflow and link changes.
    private static func describe(_ page: inout Page) {
        guard page.status != .new && page.status != .missing else {
            page.message = page.status == .new ? "not in the expected document" : "not in the actual document"
            if !page.reflowed.isEmpty { page.message += "; its words: \(page.reflowed)" }
            return
        }
        var parts: [String] = []
        if let outcome = page.outcome, outcome.verdict != .match || page.status == .within {
            parts.append("\(outcome.result.differentPixels) pixels differ" + (outcome.kind.map { " (\($0))" } ?? ""))
        }
        if !page.reflowed.isEmpty { parts.append("reflowed: " + page.reflowed) }
        if !page.words.isEmpty { parts.append("text: " + page.words.prefix(3).map(\.description).joined(separator: "; ")) }
        if !page.links.isEmpty { parts.append("links: " + page.links.prefix(3).joined(separator: "; ")) }
        page.message = parts.joined(separator: " · ")
    }

    private final class Shared: @unchecked Sendable {
        let lock = Lock()
        var pages: [Result<Page, PDFError>?]
        /// Each page's words on both sides (none where a side has no such page) and their
        /// hunks, as long as they number at most `maxHeldWords` in all; past it, none are kept
        /// (`wordsDropped`).
        var words: [(expected: [String], actual: [String], hunks: [WordDiff.Hunk])]
        var heldWords = 0, wordsDropped = false
        let maxHeldWords: Int
        var next = 0
        init(count: Int, maxHeldWords: Int) {
            self.maxHeldWords = maxHeldWords
            pages = Array(repeating: nil, count: count)
            words = Array(repeating: ([], [], []), count: count)
        }
        func take() -> Int? { lock.withLock { defer { next += 1 }; return next < pages.count ? next : nil } }
        func put(_ page: Result<Page, PDFError>, words: (expected: [String], actual: [String], hunks: [WordDiff.Hunk]), at index: Int) {
            lock.withLock {
                pages[index] = page
                heldWords += words.expected.count + words.actual.count
                if heldWords > maxHeldWords, !wordsDropped {
                    wordsDropped = true
                    self.words = []
                }
                if !wordsDropped { self.words[index] = words }
            }
        }
        func finished() throws(PDFError) -> [Page] {
            var out: [Page] = []
            for (index, page) in pages.enumerated() {
                guard let page else { throw PDFError("page \(index + 1) was not compared") }
                out.append(try page.get())
            }
            return out
        }
    }

    /// Page `index` compared (its message is written once the whole documents' words are
    /// read: `describe`).
    private static func compare(page index: Int, _ e: PDFFile, _ a: PDFFile, words: (expected: [String], actual: [String], hunks: [WordDiff.Hunk]),
                                counts: (Int, Int), settings: Settings) -> Result<Page, PDFError> {
        var page = Page(number: index + 1)
        do {
            if index >= counts.0 || index >= counts.1 {
                page.status = index >= counts.0 ? .new : .missing
                if settings.panels {
                    let only = index >= counts.0 ? a : e
                    let png = try PNGCodec.encode(try only.render(page: index, dpi: settings.dpi, maxPixels: settings.maxPixels))
                    if index >= counts.0 { page.actualPNG = png } else { page.expectedPNG = png }
                }
                return .success(page)
            }
            let expectedImage = try e.render(page: index, dpi: settings.dpi, maxPixels: settings.maxPixels)
            let actualImage = try a.render(page: index, dpi: settings.dpi, maxPixels: settings.maxPixels)
            var outcome = try Comparison.compare(expected: expectedImage, actual: actualImage, tolerance: settings.tolerance,
                                                 maxPixels: settings.maxPixels, panel: settings.panels ? .whenCompared : .none)
            page.words = WordDiff.changes(words.expected, words.actual, hunks: words.hunks)
            page.links = linkChanges(e.links(ofPage: index), a.links(ofPage: index))
            let pixelsDiffer = outcome.verdict != .match
            if pixelsDiffer || !page.words.isEmpty || !page.links.isEmpty {
                page.status = .changed
                if settings.panels {
                    page.expectedPNG = try PNGCodec.encode(expectedImage)
                    page.actualPNG = try PNGCodec.encode(actualImage)
                    page.differencePNG = try outcome.panel.map { try PNGCodec.encode($0) }
                }
            } else if !outcome.result.identical {
                page.status = .within
            }
            (outcome.expected, outcome.actual, outcome.panel) = (nil, nil, nil)
            page.outcome = outcome
            return .success(page)
        } catch let error as PDFError {
            return .failure(PDFError("page \(index + 1): \(error)"))
        } catch {
            return .failure(PDFError("page \(index + 1): \(error)"))
        }
    }

    /// Links matched by target: the same rectangle (to 0.5 pt) is unchanged, another one of the
    /// same target moved, the rest were added or removed.
    static func linkChanges(_ expected: [PDFFile.Link], _ actual: [PDFFile.Link]) -> [String] {
        func key(_ l: PDFFile.Link) -> [Double] { [l.rect.x1, l.rect.y1, l.rect.x2, l.rect.y2].map { ($0 * 2).rounded() / 2 } }
        func shown(_ l: PDFFile.Link) -> String { "(" + key(l).map { $0 == $0.rounded() ? String(Int($0)) : String($0) }.joined(separator: ", ") + ")" }
        var left = expected, right = actual
        left.removeAll { l in
            guard let i = right.firstIndex(where: { $0.target == l.target && key($0) == key(l) }) else { return false }
            right.remove(at: i)
            return true
        }
        var changes: [String] = []
        for l in left {
            if let i = right.firstIndex(where: { $0.target == l.target }) {
                changes.append("moved \(l.target) from \(shown(l)) to \(shown(right[i]))")
                right.remove(at: i)
            } else {
                changes.append("removed \(l.target) at \(shown(l))")
            }
        }
        changes += right.map { "added \($0.target) at \(shown($0))" }
        return changes
    }

    static func bookmarkChanges(_ expected: [PDFFile.Bookmark], _ actual: [PDFFile.Bookmark]) -> [String] {
        let text = { (b: PDFFile.Bookmark) in String(repeating: "  ", count: b.depth) + "'\(b.title)' -> page \(b.page)" }
        return WordDiff.changes(expected.map(text), actual.map(text), context: 0).flatMap { change in
            change.removed.map { "removed bookmark \($0)" } + change.added.map { "added bookmark \($0)" }
        }
    }
}
