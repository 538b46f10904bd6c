extension Typesetter {
    /// `layout` clamped to `maxLines`: when the text takes more lines, it stops after that many
    /// and the last ends with `ellipsis`, appended at the logical end (so bidi puts it on the
    /// left of a right-to-left line) and shaped in the line's font like any text, cutting whole
    /// grapheme clusters only. `Layout.truncatedAt` is where the text was cut.
    func clamped(_ full: Layout, prepared: PreparedText, style: TypesetStyle, maxLines: Int, ellipsis: String) throws -> Layout {
        guard full.lines.count > maxLines, maxLines > 0 else { return full }
        let limit = full.lines[maxLines - 1].end
        let characters = Array(String(decoding: prepared.utf8[..<limit], as: UTF8.self))
        var unclamped = style
        unclamped.maxLines = nil
        func candidate(_ n: Int) -> String {
            var kept = String(characters[..<n])
            while let last = kept.last, last.isWhitespace || last == "\u{00AD}" { kept.removeLast() }
            return kept + ellipsis
        }
        // Spans stop at the cut; the ellipsis takes the style (and tags) of the last kept character.
        func styled(_ text: String) -> TypesetStyle {
            var cut = unclamped
            let kept = text.utf8.count - ellipsis.utf8.count
            cut.runs = prepared.runs.cut(at: kept, appending: ellipsis.utf8.count)
            cut.tags = prepared.tags.cut(at: kept, appending: ellipsis.utf8.count)
            return cut
        }
        func fits(_ n: Int) throws -> Layout? {
            let text = candidate(n)
            let layout = try self.layout(text, style: styled(text))
            return layout.lines.count <= maxLines ? layout : nil
        }
        // The most characters whose text plus ellipsis still takes at most `maxLines` lines
        // (more text never takes fewer lines, so this bisects).
        var lo = 0, hi = characters.count
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if try fits(mid) != nil { lo = mid } else { hi = mid - 1 }
        }
        let text = candidate(lo)
        var layout = try self.layout(text, style: styled(text))
        layout.truncatedAt = text.utf8.count - ellipsis.utf8.count
        layout.droppedMarks = full.droppedMarks
        return layout
    }
}
