/// A line's byte range, and whether it ends with a hyphen that is drawn (at a soft hyphen, or
/// at an emergency cut inside a word).
struct LineRange {
    var range: Range<Int>
    var hyphen = false
}

/// Greedy line filling over UAX #14 opportunities. A line ends at the last opportunity whose
/// text (without trailing whitespace, with the hyphen it would show) fits; a segment wider than
/// the width on its own is cut at grapheme-cluster boundaries (with a hyphen inside a word of a
/// hyphenating script, unless `emergencyHyphens` is off); mandatory breaks always end a line.
/// `hyphenWidth(offset)` is the width of the hyphen drawn for a line ending at `offset`, or nil
/// when none would be drawn there.
func breakLines(_ paragraph: ShapedParagraph, maxWidth: Double?, emergencyHyphens: Bool = true,
                hyphenWidth: (Int, Bool) -> Double? = { _, _ in nil }) -> [LineRange] {
    let start = paragraph.paragraph.start, end = paragraph.paragraph.end
    guard start < end else { return [LineRange(range: start..<start)] }
    // Sub-pixel slack so a line exactly as wide as the limit is not broken by rounding.
    let limit = maxWidth.map { $0 + 1e-6 }
    var lines: [LineRange] = []
    var lineStart = start
    var lastFit: Int?
    var lastFitHyphen = false
    var i = 0
    let breaks = paragraph.breaks
    while i < breaks.count, lineStart < end {
        let candidate = breaks[i]
        if candidate.offset <= lineStart {
            i += 1
            continue
        }
        // A line ending here shows a hyphen when the break follows a soft hyphen.
        let soft = !candidate.mandatory && candidate.offset < end ? hyphenWidth(candidate.offset, true) : nil
        let width = paragraph.width(lineStart, paragraph.trimmedEnd(lineStart, candidate.offset)) + (soft ?? 0)
        if limit == nil || width <= limit! {
            if candidate.mandatory || candidate.offset == end {
                lines.append(LineRange(range: lineStart..<candidate.offset))
                lineStart = candidate.offset
                lastFit = nil
            } else {
                lastFit = candidate.offset
                lastFitHyphen = soft != nil
            }
            i += 1
        } else if let fit = lastFit {
            lines.append(LineRange(range: lineStart..<fit, hyphen: lastFitHyphen))
            lineStart = fit
            lastFit = nil
        } else {
            // Nothing fits: take as many whole clusters as fit, at least one, leaving room for
            // the hyphen a cut inside a word shows.
            func hyphenAt(_ cut: Int) -> Double? {
                emergencyHyphens && cut < candidate.offset ? hyphenWidth(cut, false) : nil
            }
            var cut = paragraph.clusterEnd(after: lineStart)
            while cut < candidate.offset {
                let next = paragraph.clusterEnd(after: cut)
                let extra = hyphenAt(next) ?? 0
                if paragraph.width(lineStart, paragraph.trimmedEnd(lineStart, next)) + extra > limit! { break }
                cut = next
            }
            lines.append(LineRange(range: lineStart..<cut, hyphen: hyphenAt(cut) != nil))
            lineStart = cut
        }
    }
    if lineStart < end { lines.append(LineRange(range: lineStart..<end)) }
    return lines
}
