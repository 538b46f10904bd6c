import Typeset

extension Line {
    /// The part of the line that shows bytes `bytes` of the text: its runs cut to the glyphs
    /// whose clusters start there (a list item's label apart from its body, each tagged on its
    /// own). Nil when no glyph of the line is there. The box stays the line's.
    func clipped(to bytes: Range<Int>) -> Line? {
        let lower = Swift.max(start, bytes.lowerBound), upper = Swift.min(end, bytes.upperBound)
        guard lower < upper else { return nil }
        var out = self
        out.runs = runs.compactMap { run in
            var piece = run
            piece.glyphs = run.glyphs.filter { (lower..<upper).contains($0.cluster) }
            (piece.start, piece.end) = (Swift.max(run.start, lower), Swift.min(run.end, upper))
            return piece.glyphs.isEmpty || piece.start >= piece.end ? nil : piece
        }
        guard !out.runs.isEmpty else { return nil }
        (out.start, out.end) = (lower, upper)
        // The drawn hyphen belongs to the line's end.
        out.hyphen = hyphen && upper == end
        return out
    }
}
