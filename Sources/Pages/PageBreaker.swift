/// Where a long text's lines break across pages: pure arithmetic over line boxes.
package enum PageBreaker {
    /// A line as page breaking sees it.
    package struct Box: Sendable {
        package var top: Double
        package var bottom: Double
        package var paragraph: Int
        package var blank: Bool
        /// The line stays on the page of the line after it (a heading's).
        package var keepWithNext = false
        package init(top: Double, bottom: Double, paragraph: Int, blank: Bool) {
            (self.top, self.bottom, self.paragraph, self.blank) = (top, bottom, paragraph, blank)
        }
    }

    /// One page's lines, and the layout y its first shown line starts at.
    package struct Page: Equatable, Sendable {
        package var lines: Range<Int>
        package var top: Double
    }

    /// Fills pages of `height` greedily, never cutting a line; a break inside a paragraph
    /// moves up until at least `orphans` of its lines stay and `widows` go on (CSS), unless
    /// no such break leaves the page a line. Blank lines at the top of a page take no room,
    /// and blank lines at the very end join the last page. Every line is on exactly one page.
    package static func paginate(_ boxes: [Box], height: Double, orphans: Int = 2, widows: Int = 2) throws -> [Page] {
        var pages: [Page] = []
        var start = 0
        while start < boxes.count {
            var first = start
            while first < boxes.count, boxes[first].blank { first += 1 }
            if first == boxes.count {
                if pages.isEmpty { pages.append(Page(lines: start..<first, top: boxes[start].top)) } else {
                    pages[pages.count - 1].lines = pages[pages.count - 1].lines.lowerBound..<first
                }
                break
            }
            let top = boxes[first].top
            guard boxes[first].bottom - top <= height + 1e-6 else {
                throw PageError(nil, "line \(first + 1) is \(format(boxes[first].bottom - top)) pt tall, more than the page's \(format(height)) pt for text: use a smaller font size or page margins")
            }
            var end = first + 1
            while end < boxes.count, boxes[end].bottom - top <= height + 1e-6 { end += 1 }
            if end < boxes.count { end = keepTogether(boxes, breakAt: end, after: first, orphans: orphans, widows: widows) }
            // A heading at the foot of a page goes on with what it heads (if the page keeps a line).
            var kept = end
            while kept < boxes.count, kept > first + 1, boxes[kept - 1].keepWithNext { kept -= 1 }
            if kept < end, !boxes[kept - 1].keepWithNext { end = kept }
            pages.append(Page(lines: start..<end, top: top))
            start = end
        }
        return pages
    }

    /// The latest break at or before `end` (the next page's first line) that leaves at least
    /// one line after `first` and honours orphans and widows; `end` itself when none does.
    static func keepTogether(_ boxes: [Box], breakAt end: Int, after first: Int, orphans: Int, widows: Int) -> Int {
        var k = end
        while k > first {
            let paragraph = boxes[k].paragraph
            if boxes[k - 1].paragraph != paragraph { return k }
            var p0 = k, p1 = k
            while p0 > 0, boxes[p0 - 1].paragraph == paragraph { p0 -= 1 }
            while p1 + 1 < boxes.count, boxes[p1 + 1].paragraph == paragraph { p1 += 1 }
            if k - p0 >= orphans, p1 - k + 1 >= widows { return k }
            k -= 1
        }
        return end
    }

    private static func format(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }
}
