/// Two documents' text changes read across their pages. Each page's words are diffed with
/// its counterpart's first; then the words those diffs removed are matched, in order, with the
/// words they added anywhere in the document. A word removed from one page and added to
/// another crossed a page break: the page reflowed ("6 words to page 3"), its text did not
/// change. A word crosses a break only as text flows: from a page's last change to a later
/// page's first (or from its first to an earlier page's last), past pages that all changed;
/// a word edited on page 37 and one added on page 101 are two changes. What is left
/// unmatched is the text that changed, told on its page. Page furniture (a header, "2 / 7")
/// stays on its page and is never taken for moved text.
package struct DocumentWords {
    /// A page's words that crossed its page breaks: how many came from (or went to) each page
    /// of the other document, by page number from 1, in page order.
    package struct Reflow: Sendable {
        package var from: [(page: Int, words: Int)] = []
        package var to: [(page: Int, words: Int)] = []

        /// "6 words from page 2, 5 words to page 4"; empty when no word crossed.
        package var description: String {
            let words = { (n: Int) in n == 1 ? "1 word" : "\(n) words" }
            return (from.map { "\(words($0.words)) from page \($0.page)" } + to.map { "\(words($0.words)) to page \($0.page)" })
                .joined(separator: ", ")
        }
    }

    private struct Page {
        var expected: [String]
        var actual: [String]
        var hunks: [WordDiff.Hunk]
        /// Per removed (added) word of `hunks`, in order: the page (from 0) its match was
        /// added to (removed from) elsewhere, or nil: a change of this page.
        var removedGoesTo: [Int?] = []
        var addedComesFrom: [Int?] = []
    }

    private var pages: [Page]

    /// Each page's words on both sides (a page one side lacks has none there) and the hunks
    /// between them (`WordDiff.aligned`'s, made once as each page is compared).
    package init(pages diffed: [(expected: [String], actual: [String], hunks: [WordDiff.Hunk])]) {
        pages = diffed.map { Page(expected: $0.expected, actual: $0.actual, hunks: $0.hunks) }
        // Every removed and every added word, in document order, with its page and whether it
        // is in the page's first or last change.
        typealias Word = (page: Int, word: String, first: Bool, last: Bool)
        var removed: [Word] = [], added: [Word] = []
        for (i, page) in pages.enumerated() {
            for (k, hunk) in page.hunks.enumerated() {
                let (first, last) = (k == 0, k == page.hunks.count - 1)
                removed += page.expected[hunk.expected].map { (i, $0, first, last) }
                added += page.actual[hunk.actual].map { (i, $0, first, last) }
            }
            pages[i].removedGoesTo = Array(repeating: nil, count: page.hunks.reduce(0) { $0 + $1.expected.count })
            pages[i].addedComesFrom = Array(repeating: nil, count: page.hunks.reduce(0) { $0 + $1.actual.count })
        }
        // Matched in order: a word removed here and added there. Past `WordDiff.maxTable` the
        // changes are too many to match; each page then keeps its own diff.
        guard let moves = WordDiff.hunks(removed.map(\.word), added.map(\.word)) else { return }
        var firstRemoved = pages.map { _ in 0 }, firstAdded = pages.map { _ in 0 }
        var offsets = (removed: [Int](), added: [Int]())
        for page in removed.map(\.page) { offsets.removed.append(firstRemoved[page]); firstRemoved[page] += 1 }
        for page in added.map(\.page) { offsets.added.append(firstAdded[page]); firstAdded[page] += 1 }
        // Pages with a change before each page: whether every page between two changed is one
        // subtraction, whatever the distance.
        let changedBefore = pages.reduce(into: [0]) { $0.append($0.last! + ($1.hunks.isEmpty ? 0 : 1)) }
        var (i, j) = (0, 0)
        for gap in moves + [WordDiff.Hunk(expected: removed.count..<removed.count, actual: added.count..<added.count)] {
            while i < gap.expected.lowerBound {
                let (from, to) = (removed[i].page, added[j].page)
                // Removed and added on the same page is a change there (a word moved within it).
                let flows = from < to ? removed[i].last && added[j].first : removed[i].first && added[j].last
                let (low, high) = (min(from, to), max(from, to))
                if from != to, flows, changedBefore[high] - changedBefore[low + 1] == high - low - 1 {
                    pages[from].removedGoesTo[offsets.removed[i]] = to
                    pages[to].addedComesFrom[offsets.added[j]] = from
                }
                i += 1; j += 1
            }
            (i, j) = (gap.expected.upperBound, gap.actual.upperBound)
        }
    }

    /// The text changes on page `index` (from 0), without the words that crossed its breaks:
    /// each with the page's words before it as context (not the page before's: its last
    /// words are often its footer).
    package func changes(onPage index: Int, context: Int = 3) -> [WordDiff.Change] {
        let page = pages[index]
        var (r, a) = (0, 0)
        var out: [WordDiff.Change] = []
        for (k, hunk) in page.hunks.enumerated() {
            let removed = hunk.expected.filter { _ in defer { r += 1 }; return page.removedGoesTo[r] == nil }
            let added = hunk.actual.filter { _ in defer { a += 1 }; return page.addedComesFrom[a] == nil }
            guard !removed.isEmpty || !added.isEmpty else { continue }
            let floor = k > 0 ? page.hunks[k - 1].expected.upperBound : 0
            let at = removed.first ?? hunk.expected.lowerBound
            out.append(WordDiff.Change(before: Array(page.expected[max(floor, at - context)..<at]),
                                       removed: removed.map { page.expected[$0] }, added: added.map { page.actual[$0] }))
        }
        return out
    }

    /// The words of page `index` (from 0) that crossed its page breaks.
    package func reflow(ofPage index: Int) -> Reflow {
        let tally = { (pages: [Int?]) in
            Dictionary(pages.compactMap { $0.map { ($0 + 1, 1) } }, uniquingKeysWith: +).sorted { $0.key < $1.key }.map { (page: $0.key, words: $0.value) }
        }
        return Reflow(from: tally(pages[index].addedComesFrom), to: tally(pages[index].removedGoesTo))
    }
}
