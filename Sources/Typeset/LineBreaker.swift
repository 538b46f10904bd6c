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
/// when none would be drawn there. The paragraph's first line has `indent` less room.
func breakLines(_ paragraph: ShapedParagraph, maxWidth: Double?, from first: Int? = nil, emergencyHyphens: Bool = true,
                indent: Double = 0, hyphenWidth: (Int, Bool) -> Double? = { _, _ in nil }) -> [LineRange] {
    let start = first ?? paragraph.paragraph.start, end = paragraph.paragraph.end
    guard start < end else { return [LineRange(range: start..<start)] }
    // Sub-pixel slack so a line exactly as wide as the limit is not broken by rounding; at
    // least a hair of room even when the indent takes it all (a cluster then goes alone).
    let fullLimit = maxWidth.map { $0 + 1e-6 }
    var limit = fullLimit.map { start == paragraph.paragraph.start ? max($0 - indent, 1e-6) : $0 }
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
                limit = fullLimit
            } else {
                lastFit = candidate.offset
                lastFitHyphen = soft != nil
            }
            i += 1
        } else if let fit = lastFit {
            lines.append(LineRange(range: lineStart..<fit, hyphen: lastFitHyphen))
            lineStart = fit
            lastFit = nil
            limit = fullLimit
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
            limit = fullLimit
        }
    }
    if lineStart < end { lines.append(LineRange(range: lineStart..<end)) }
    return lines
}

/// The wrapping modes over the greedy fill (per paragraph, the block keeps its width):
/// `balance` gives the same number of lines at the narrowest width that keeps it (found by
/// bisection on the width, so the lines come out near-equal, as CSS `text-wrap: balance`);
/// `pretty` avoids a last line of one word by pulling a word down from the line above when that
/// does not add a line.
func wrapLines(_ paragraph: ShapedParagraph, maxWidth: Double?, mode: WrapMode, emergencyHyphens: Bool, indent: Double = 0,
               hyphenWidth: (Int, Bool) -> Double?) -> [LineRange] {
    let greedy = breakLines(paragraph, maxWidth: maxWidth, emergencyHyphens: emergencyHyphens, indent: indent, hyphenWidth: hyphenWidth)
    guard let width = maxWidth, greedy.count > 1, mode != .greedy else { return greedy }
    let count = greedy.count
    switch mode {
    case .greedy:
        return greedy
    case .balance:
        var low = 0.0, high = width
        // 1/64 px is finer than any difference a reader sees; the line count only grows as the
        // width shrinks, so the bisection keeps `high` at a width with the greedy count.
        while high - low > 1.0 / 64 {
            let mid = (low + high) / 2
            let lines = breakLines(paragraph, maxWidth: mid, emergencyHyphens: emergencyHyphens, indent: indent, hyphenWidth: hyphenWidth)
            if lines.count <= count { high = mid } else { low = mid }
        }
        return breakLines(paragraph, maxWidth: high, emergencyHyphens: emergencyHyphens, indent: indent, hyphenWidth: hyphenWidth)
    case .pretty:
        let last = greedy[count - 1].range
        let visibleEnd = paragraph.trimmedEnd(last.lowerBound, last.upperBound)
        let oneWord = !paragraph.breaks.contains { !$0.mandatory && $0.offset > last.lowerBound && $0.offset < visibleEnd }
        guard oneWord else { return greedy }
        // Re-break the last two lines with the line above just narrower than it is: its last
        // word moves down; kept only if that still makes two lines.
        let above = greedy[count - 2].range
        let aboveWidth = paragraph.width(above.lowerBound, paragraph.trimmedEnd(above.lowerBound, above.upperBound))
        // (A first line's room is its width plus the indent: the indent comes off again inside.)
        let tail = breakLines(paragraph, maxWidth: aboveWidth - 1e-3 + (above.lowerBound == paragraph.paragraph.start ? indent : 0),
                              from: above.lowerBound, emergencyHyphens: emergencyHyphens, indent: indent, hyphenWidth: hyphenWidth)
        guard tail.count == 2, !tail[0].hyphen, tail[0].range.upperBound < above.upperBound,
              paragraph.width(tail[1].range.lowerBound, paragraph.trimmedEnd(tail[1].range.lowerBound, tail[1].range.upperBound)) <= width
        else { return greedy }
        return Array(greedy[..<(count - 2)]) + tail
    }
}
