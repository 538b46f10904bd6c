/// One paragraph after itemization and shaping: the runs with their glyphs, the break
/// opportunities and a prefix sum of advances so that any range is measured in O(1).
struct ShapedParagraph {
    var paragraph: Paragraph
    var clusters: [Cluster]
    var runs: [ItemRun]
    var glyphs: [[ShapedGlyph]]
    /// Line-break opportunities as absolute byte offsets, increasing, ending at `paragraph.end`.
    var breaks: [TextBreak.Break]
    var paragraphLevel: UInt8
    /// `advanceBefore[b - start]`: total advance of the clusters that begin before byte `b`.
    private var advanceBefore: [Double]
    /// Cluster index starting at each byte (relative), or -1.
    private var clusterAt: [Int]

    init(paragraph: Paragraph, clusters: [Cluster], runs: [ItemRun], glyphs: [[ShapedGlyph]],
         breaks: [TextBreak.Break], paragraphLevel: UInt8) {
        self.paragraph = paragraph
        self.clusters = clusters
        self.runs = runs
        self.glyphs = glyphs
        self.breaks = breaks
        self.paragraphLevel = paragraphLevel
        let length = paragraph.end - paragraph.start
        var advances = [Double](repeating: 0, count: length + 1)
        for run in glyphs {
            for glyph in run { advances[glyph.cluster - paragraph.start] += glyph.advance }
        }
        var sum = 0.0
        advanceBefore = advances.map { advance in
            defer { sum += advance }
            return sum
        }
        clusterAt = [Int](repeating: -1, count: length + 1)
        for (i, cluster) in clusters.enumerated() { clusterAt[cluster.start - paragraph.start] = i }
    }

    var rtl: Bool { paragraphLevel & 1 == 1 }

    /// The run holding byte `offset`.
    func run(containing offset: Int) -> ItemRun? {
        let index = partitionPoint(runs.count) { runs[$0].end > offset }
        return index < runs.count && runs[index].start <= offset ? runs[index] : nil
    }

    /// Whether the hyphenation dictionary put a break opportunity at `offset`.
    func isHyphenationPoint(_ offset: Int) -> Bool {
        let index = partitionPoint(breaks.count) { breaks[$0].offset >= offset }
        return index < breaks.count && breaks[index].offset == offset && breaks[index].hyphenation
    }

    /// Indices of the runs that overlap `start..<end` (runs are sorted and do not overlap).
    func runIndices(overlapping start: Int, _ end: Int) -> Range<Int> {
        let first = partitionPoint(runs.count) { runs[$0].end > start }
        let last = partitionPoint(runs.count) { runs[$0].start >= end }
        return first..<max(first, last)
    }

    /// The glyphs of run `index` whose cluster lies in `start..<end`: a contiguous slice,
    /// since clusters rise along a left-to-right run and fall along a right-to-left one.
    func glyphRange(ofRun index: Int, _ start: Int, _ end: Int) -> Range<Int> {
        let glyphs = self.glyphs[index]
        if runs[index].rtl {
            return partitionPoint(glyphs.count) { glyphs[$0].cluster < end }
                ..< partitionPoint(glyphs.count) { glyphs[$0].cluster < start }
        }
        return partitionPoint(glyphs.count) { glyphs[$0].cluster >= start }
            ..< partitionPoint(glyphs.count) { glyphs[$0].cluster >= end }
    }

    /// Advance width of the clusters in `start..<end`.
    func width(_ start: Int, _ end: Int) -> Double {
        advanceBefore[end - paragraph.start] - advanceBefore[start - paragraph.start]
    }

    /// `end` moved back over whitespace, but not before `start`.
    func trimmedEnd(_ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start {
            guard let index = clusterIndex(endingAt: end), clusters[index].isWhitespace else { break }
            end = clusters[index].start
        }
        return end
    }

    /// The cluster that ends at byte `end`.
    func clusterIndex(endingAt end: Int) -> Int? {
        if end == paragraph.end { return clusters.isEmpty ? nil : clusters.count - 1 }
        let next = clusterAt[end - paragraph.start]
        return next > 0 ? next - 1 : nil
    }

    /// The end of the cluster starting at `start`.
    func clusterEnd(after start: Int) -> Int {
        let index = clusterAt[start - paragraph.start]
        return index >= 0 ? clusters[index].end : paragraph.end
    }
}

/// The first index in 0..<count for which `isAbove` holds, given it is false then true.
@inlinable
func partitionPoint(_ count: Int, _ isAbove: (Int) -> Bool) -> Int {
    var low = 0, high = count
    while low < high {
        let mid = (low + high) / 2
        if isAbove(mid) { high = mid } else { low = mid + 1 }
    }
    return low
}
