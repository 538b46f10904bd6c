/// Greedy line filling over UAX #14 opportunities. A line ends at the last opportunity whose
/// text (without trailing whitespace) fits; a segment wider than the width on its own is cut at
/// grapheme-cluster boundaries; mandatory breaks always end a line. Returns byte ranges.
func breakLines(_ paragraph: ShapedParagraph, maxWidth: Double?) -> [Range<Int>] {
    let start = paragraph.paragraph.start, end = paragraph.paragraph.end
    guard start < end else { return [start..<start] }
    // Sub-pixel slack so a line exactly as wide as the limit is not broken by rounding.
    let limit = maxWidth.map { $0 + 1e-6 }
    var lines: [Range<Int>] = []
    var lineStart = start
    var lastFit: Int?
    var i = 0
    let breaks = paragraph.breaks
    while i < breaks.count, lineStart < end {
        let candidate = breaks[i]
        if candidate.offset <= lineStart {
            i += 1
            continue
        }
        let width = paragraph.width(lineStart, paragraph.trimmedEnd(lineStart, candidate.offset))
        if limit == nil || width <= limit! {
            if candidate.mandatory || candidate.offset == end {
                lines.append(lineStart..<candidate.offset)
                lineStart = candidate.offset
                lastFit = nil
            } else {
                lastFit = candidate.offset
            }
            i += 1
        } else if let fit = lastFit {
            lines.append(lineStart..<fit)
            lineStart = fit
            lastFit = nil
        } else {
            // Nothing fits: take as many whole clusters as fit, at least one.
            var cut = paragraph.clusterEnd(after: lineStart)
            while cut < candidate.offset {
                let next = paragraph.clusterEnd(after: cut)
                if paragraph.width(lineStart, paragraph.trimmedEnd(lineStart, next)) > limit! { break }
                cut = next
            }
            lines.append(lineStart..<cut)
            lineStart = cut
        }
    }
    if lineStart < end { lines.append(lineStart..<end) }
    return lines
}
