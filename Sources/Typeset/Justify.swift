/// Justification: a line stretched to the block's width by widening its word spaces, or, in a
/// line without spaces (CJK), the gaps between its grapheme clusters. Glyphs move in visual
/// order, so right-to-left and mixed lines stretch the same way.
enum Justify {
    static func stretch(_ line: inout Line, to width: Double, utf8: [UInt8]) {
        let extra = width - line.width
        guard extra > 1e-9 else { return }
        // The line's visible glyphs in visual order, as (run, glyph) indices.
        var order: [(Int, Int)] = []
        for r in line.runs.indices { for g in line.runs[r].glyphs.indices { order.append((r, g)) } }
        guard order.count > 1 else { return }
        let lastCluster = order.map { line.runs[$0.0].glyphs[$0.1].cluster }.max() ?? 0
        // Gaps after spaces inside the line; else after every cluster but the visually last.
        var gaps: [Int] = []
        for (k, (r, g)) in order.enumerated() where k + 1 < order.count {
            let glyph = line.runs[r].glyphs[g]
            let next = line.runs[order[k + 1].0].glyphs[order[k + 1].1]
            if isWordSpace(utf8, at: glyph.cluster) && glyph.cluster != lastCluster && next.cluster != glyph.cluster { gaps.append(k) }
        }
        if gaps.isEmpty {
            for (k, (r, g)) in order.enumerated() where k + 1 < order.count {
                if line.runs[order[k + 1].0].glyphs[order[k + 1].1].cluster != line.runs[r].glyphs[g].cluster { gaps.append(k) }
            }
        }
        guard !gaps.isEmpty else { return }
        let each = extra / Double(gaps.count)
        var shift = 0.0, gapIndex = 0
        for (k, (r, g)) in order.enumerated() {
            line.runs[r].glyphs[g].x += shift
            if gapIndex < gaps.count && gaps[gapIndex] == k {
                line.runs[r].glyphs[g].advance += each
                shift += each
                gapIndex += 1
            }
        }
        line.width = width
    }
}
