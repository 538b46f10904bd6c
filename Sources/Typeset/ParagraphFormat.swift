import Support

/// One paragraph's own layout, in ems of the block's size (so a text fitted to a box keeps its
/// proportions): an inset on the block's start side for every line, the first line moved by
/// `firstLine` more (negative: a list label hanging into the inset), and extra space above the
/// paragraph. It applies to the paragraphs that start in `start..<end` (UTF-8 bytes).
package struct ParagraphFormat: Sendable, Equatable {
    package var start: Int
    package var end: Int
    package var inset: Double
    package var firstLine: Double
    package var spaceBefore: Double
    /// Every line of the paragraph at least this tall (room for a picture on an empty line).
    package var minHeight: Double
    /// Pages keep the paragraph with the next one (a heading with what it heads); layout
    /// itself ignores it.
    package var keepWithNext = false

    package init(start: Int, end: Int, inset: Double = 0, firstLine: Double = 0, spaceBefore: Double = 0, minHeight: Double = 0) {
        (self.start, self.end, self.inset, self.firstLine, self.spaceBefore) = (start, end, inset, firstLine, spaceBefore)
        self.minHeight = minHeight
    }

    /// Values a layout can take: finite, insets and space not negative, a hanging first line
    /// no further out than the inset, none past `maxEms`.
    static let maxEms = 1000.0

    func validated() throws -> ParagraphFormat {
        for (name, value) in [("paragraph inset", inset), ("paragraph space", spaceBefore), ("paragraph height", minHeight)] {
            _ = try Checked.number(value, name, in: 0...ParagraphFormat.maxEms)
        }
        _ = try Checked.number(firstLine, "first-line indent", in: -inset...ParagraphFormat.maxEms)
        return self
    }
}

extension ParagraphFormat: ByteRange {}

extension Array where Element == ParagraphFormat {
    /// The format of the paragraph starting at byte `start` (sorted, apart formats).
    package func format(at start: Int) -> ParagraphFormat? {
        let i = partitionPoint(count) { self[$0].end > start }
        return i < count && self[i].start <= start ? self[i] : nil
    }
}
