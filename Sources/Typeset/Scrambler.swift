/// Substitute glyphs for restricted lines: every glyph but a space's is replaced by another glyph of
/// the same font with a similar advance, chosen pseudo-randomly from `seed`. The substitutes
/// never include a glyph the hidden lines use, so the real text never reaches the pixels and no
/// deblurring can bring it back. Positions, and so the shape of the lines and the highlight,
/// stay as they were (word widths remain visible through the blur).
///
/// The choice must not depend on the hidden text: a seed derived from it would make the output
/// a function of the secret, and candidates could be rendered and matched (a guessing oracle).
/// Callers pass a fresh random seed per render (`ScrambleSeed.random()`), or a fixed one where
/// reproducible output is wanted and that trade is understood.
/// A layout whose lines from `firstHiddenLine` on show substitute glyphs: only the scrambler
/// makes one, so a renderer that asks for it cannot be handed the real hidden glyphs by mistake.
package struct ScrambledLayout: Sendable {
    package let layout: Layout
    package let firstHiddenLine: Int

    /// `Layout.placed` for a scrambled layout: still scrambled from the same line.
    package func placed(in text: String, byteOffset: Int, paragraphOffset: Int) -> ScrambledLayout {
        ScrambledLayout(layout: layout.placed(in: text, byteOffset: byteOffset, paragraphOffset: paragraphOffset),
                        firstHiddenLine: firstHiddenLine)
    }

    /// `Layout.joined` for scrambled pieces of one text: hidden from the first line that was
    /// hidden in its piece (the pieces hide from one place in the text, so all later lines are).
    package static func joined(_ pieces: [(layout: ScrambledLayout, lines: Range<Int>, dy: Double)]) -> ScrambledLayout {
        var shown = 0
        for (piece, range, _) in pieces {
            let visible = max(0, min(piece.firstHiddenLine, range.upperBound) - range.lowerBound)
            shown += visible
            if visible < range.count { break }
        }
        return ScrambledLayout(layout: Layout.joined(pieces.map { ($0.layout.layout, $0.lines, $0.dy) }), firstHiddenLine: shown)
    }
}

extension Typesetter {
    package func scrambled(_ layout: Layout, fromLine first: Int, seed initial: UInt64) throws -> ScrambledLayout {
        ScrambledLayout(layout: try substituted(layout, fromLine: first, seed: initial), firstHiddenLine: max(first, 0))
    }

    private struct FontSize: Hashable { var font: Int; var size: Double }

    private func substituted(_ layout: Layout, fromLine first: Int, seed initial: UInt64) throws -> Layout {
        let hiddenLines = max(first, 0)..<max(first, layout.lines.count)
        guard !hiddenLines.isEmpty else { return layout }
        var out = layout
        let hidden = layout.lines[hiddenLines]
        var seed = initial
        // Glyphs the hidden lines use, per font: none of them may be drawn.
        var used: [Int: Set<UInt32>] = [:]
        for line in hidden {
            for run in line.runs { used[run.font, default: []].formUnion(run.glyphs.map(\.id)) }
        }
        var pools: [FontSize: [(advance: Double, id: UInt32)]] = [:]
        let utf8 = Array(layout.text.utf8)
        for index in hiddenLines {
            for r in out.lines[index].runs.indices {
                let fontIndex = out.lines[index].runs[r].font, key = FontSize(font: fontIndex, size: out.lines[index].runs[r].size)
                let font = try shapingFont(layout.fonts[fontIndex], size: key.size)
                if pools[key] == nil { pools[key] = pool(font, excluding: used[fontIndex] ?? []) }
                let candidates = pools[key]!
                for g in out.lines[index].runs[r].glyphs.indices {
                    let glyph = out.lines[index].runs[r].glyphs[g]
                    // Spaces stay spaces; anything else is replaced, ink or not, so no glyph of
                    // the hidden text can survive whatever the font's format.
                    if isWhitespace(utf8, at: glyph.cluster) { continue }
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    out.lines[index].runs[r].glyphs[g].id = substitute(for: font.advance(of: glyph.id), in: candidates,
                                                                       random: seed >> 33)
                }
            }
            // The hidden text itself is gone from the layout too.
            out.lines[index].text = ""
        }
        return out
    }

    /// Up to ~600 glyphs of the font spread over its glyph ids, with ink, not `excluded`,
    /// sorted by advance.
    private func pool(_ font: ShapingFont, excluding excluded: Set<UInt32>) -> [(advance: Double, id: UInt32)] {
        let count = font.glyphCount
        let step = max(1, count / 600)
        return Swift.stride(from: 1, to: count, by: step).compactMap { index -> (Double, UInt32)? in
            let id = UInt32(index)
            guard !excluded.contains(id), font.hasInk(id) else { return nil }
            let advance = font.advance(of: id)
            return advance > 0 ? (advance, id) : nil
        }.sorted { $0.0 < $1.0 }
    }

    /// One of the (up to) eight candidates whose advance is closest to `advance`.
    private func substitute(for advance: Double, in candidates: [(advance: Double, id: UInt32)], random: UInt64) -> UInt32 {
        guard !candidates.isEmpty else { return 0 }  // .notdef: a box, still not the real glyph
        let low = partitionPoint(candidates.count) { candidates[$0].advance >= advance }
        let start = max(0, min(low - 4, candidates.count - 8)), end = min(candidates.count, start + 8)
        return candidates[start + Int(random % UInt64(end - start))].id
    }
}

/// Whether the character starting at byte `offset` is whitespace.
private func isWhitespace(_ utf8: [UInt8], at offset: Int) -> Bool {
    guard offset < utf8.count else { return false }
    var iterator = utf8[offset...].makeIterator()
    var decoder = UTF8()
    if case let .scalarValue(scalar) = decoder.decode(&iterator) { return Cluster.isWhitespace(scalar) }
    return false
}

package enum ScrambleSeed {
    /// A seed from the system's random source: a new one for every render.
    package static func random() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}
