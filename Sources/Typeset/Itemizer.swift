/// A maximal stretch of clusters with one span style, one font, one bidi level and one script:
/// the unit HarfBuzz shapes.
struct ItemRun {
    var start: Int
    var end: Int
    /// Index into the prepared text's span styles (0: the block's own).
    var style = 0
    /// Index into that style's chain's candidates.
    var font: Int
    var level: UInt8
    var script: UInt32
    var rtl: Bool { level & 1 == 1 }
}

/// A cluster that no font of a partial chain (the pinned fonts alone) covers as the whole
/// chain would: the text is itemized again with the whole chain.
struct NeedsWholeChain: Error {}

/// What itemizing learns over one set of chains, kept across the paragraphs of a text: the
/// chains' coverage, and per one-scalar cluster its facts and first covering font (a CJK,
/// Arabic or Cyrillic text repeats a few hundred characters, and their Unicode properties and
/// the chain's coverage cost more than the rest of itemizing). Used by one thread (one
/// `prepare`).
final class ItemizerCache {
    /// The chains as itemizing reads them, made once for every paragraph.
    let coverage: [ChainCoverage]
    /// Made when a paragraph first has a cluster to look up (a Latin card's never has).
    private var made: ItemizerTables?

    init(chains: [FontChain]) { coverage = chains.map(ChainCoverage.init) }

    fileprivate func tables() -> ItemizerTables {
        if let made { return made }
        let tables = ItemizerTables()
        made = tables
        return tables
    }
}

/// Direct-mapped tables, a slot per key's low bits (the slot's key says whose answer it holds):
/// an index instead of a hash a cluster, and a text's few hundred (CJK: few thousand)
/// characters mostly keep their slots. Raw memory, read a cluster at a time without the
/// exclusivity checks a class's arrays take.
private final class ItemizerTables {
    static let slots = 8192
    /// Per scalar: bit 0 invisible, bit 1 emoji presentation, bit 2 neutral.
    let factKeys = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
    let facts = UnsafeMutablePointer<UInt8>.allocate(capacity: slots)
    /// Per span style and scalar: the first candidate covering it (-1: none).
    let firstKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
    let first = UnsafeMutablePointer<Int32>.allocate(capacity: slots)

    init() {
        factKeys.initialize(repeating: .max, count: Self.slots)
        facts.initialize(repeating: 0, count: Self.slots)
        firstKeys.initialize(repeating: .max, count: Self.slots)
        first.initialize(repeating: 0, count: Self.slots)
    }

    deinit {
        factKeys.deallocate()
        facts.deallocate()
        firstKeys.deallocate()
        first.deallocate()
    }
}

/// A chain's candidates as itemizing reads them, cluster by cluster: plain values, without
/// the faces' names that copying a candidate retains.
struct ChainCoverage {
    var faces: [FontCoverage]
    var isColor: [Bool]
    var isPartial: Bool

    init(_ chain: FontChain) {
        faces = chain.candidates.map(\.coverage)
        isColor = chain.candidates.map(\.face.isColor)
        isPartial = chain.isPartial
    }

    /// The first candidate covering `scalar`, if any.
    func first(covering scalar: Unicode.Scalar) -> Int? { faces.firstIndex { $0.covers(scalar) } }
}

/// Assigns each cluster a font (per-cluster fallback in its span's chain) and a script, then
/// merges runs.
struct Itemizer {
    /// Shared by the paragraphs itemized over its chains.
    let cache: ItemizerCache
    /// The cache's chains (read a cluster at a time).
    private let coverage: [ChainCoverage]

    init(cache: ItemizerCache) { (self.cache, coverage) = (cache, cache.coverage) }

    /// `font(for:)` for a one-scalar cluster from the cache; nil when the cluster takes the
    /// general rules (emoji presentation).
    private func cachedFont(_ scalar: Unicode.Scalar, cluster: Cluster, previous: Int?, style: Int,
                            tables: ItemizerTables) throws(NeedsWholeChain) -> Int? {
        let value = scalar.value
        let slot = Int(value) & (ItemizerTables.slots - 1)
        let facts: UInt8
        if tables.factKeys[slot] == value {
            facts = tables.facts[slot]
        } else {
            facts = (cluster.visibleScalars.isEmpty ? 1 : 0) | (cluster.wantsEmojiPresentation ? 2 : 0) | (cluster.isNeutral ? 4 : 0)
            (tables.factKeys[slot], tables.facts[slot]) = (value, facts)
        }
        if facts & 1 != 0 { return previous ?? 0 }
        guard facts & 2 == 0 else { return nil }
        if let previous, facts & 4 != 0, !coverage[style].isColor[previous], coverage[style].faces[previous].covers(scalar) {
            return previous
        }
        let key = UInt64(style) << 32 | UInt64(value)
        let index: Int
        if tables.firstKeys[slot] == key {
            index = Int(tables.first[slot])
        } else {
            index = coverage[style].first(covering: scalar) ?? -1
            (tables.firstKeys[slot], tables.first[slot]) = (key, Int32(index))
        }
        if index >= 0 { return index }
        if coverage[style].isPartial { throw NeedsWholeChain() }
        return 0
    }

    /// The font for `cluster`: colour fonts first for emoji presentation; the previous
    /// cluster's (non-colour) font for neutral characters it covers; else the first font covering the whole
    /// cluster, else the first covering its base character, else the primary font (.notdef).
    /// `tables`: the cache's tables once a cluster needed them (the caller's, across clusters).
    private func font(for cluster: Cluster, previous: Int?, style: Int, tables: inout ItemizerTables?) throws(NeedsWholeChain) -> Int {
        // The same rules below, without the Unicode property lookups that cost more than the
        // rest of itemizing: printable ASCII is never emoji-style and never invisible. Read in
        // place (no copy of the chain a cluster).
        if let scalar = cluster.printableASCII {
            if let previous, Cluster.asciiNeutral[Int(scalar.value)], !coverage[style].isColor[previous],
               coverage[style].faces[previous].covers(scalar) {
                return previous
            }
            if let index = coverage[style].first(covering: scalar) { return index }
            if coverage[style].isPartial { throw NeedsWholeChain() }
            return 0
        }
        if cluster.scalars.count == 1 {
            if tables == nil { tables = cache.tables() }
            if let tables, let font = try cachedFont(cluster.scalars[0], cluster: cluster, previous: previous, style: style, tables: tables) {
                return font
            }
        }
        let chain = coverage[style]
        let needed = cluster.visibleScalars
        if needed.isEmpty { return previous ?? 0 }
        let covers = { (index: Int) in needed.allSatisfy(chain.faces[index].covers) }
        if cluster.wantsEmojiPresentation {
            if let emoji = chain.faces.indices.first(where: { chain.isColor[$0] && covers($0) }) { return emoji }
            if chain.isPartial { throw NeedsWholeChain() }
        }
        // Spaces and punctuation stay with the text around them, but not with an emoji font
        // (its space is an emoji-wide blank).
        if let previous, cluster.isNeutral, !chain.isColor[previous], covers(previous) {
            return previous
        }
        if let index = chain.faces.indices.first(where: covers) { return index }
        if chain.isPartial { throw NeedsWholeChain() }
        return chain.first(covering: needed[0]) ?? 0
    }

    /// `styles[i]`: the span style of cluster i (none: all the block's).
    func runs(_ clusters: [Cluster], levels: [UInt8], styles: [Int] = []) throws(NeedsWholeChain) -> [ItemRun] {
        var fonts: [Int] = []
        var previous: Int?
        var tables: ItemizerTables?
        for (i, cluster) in clusters.enumerated() {
            let style = styles.isEmpty ? 0 : styles[i]
            // A neutral keeps the font before it only within one span style (indices are per chain).
            if i > 0, !styles.isEmpty, styles[i - 1] != style { previous = nil }
            let font = try font(for: cluster, previous: previous, style: style, tables: &tables)
            fonts.append(font)
            previous = font
        }
        let scripts = resolvedScripts(clusters)
        var runs: [ItemRun] = []
        for (i, cluster) in clusters.enumerated() {
            let level = levels.isEmpty ? 0 : levels[cluster.utf16Start]
            let style = styles.isEmpty ? 0 : styles[i]
            if var last = runs.last, last.style == style, last.font == fonts[i], last.level == level, last.script == scripts[i] {
                last.end = cluster.end
                runs[runs.count - 1] = last
            } else {
                runs.append(ItemRun(start: cluster.start, end: cluster.end, style: style, font: fonts[i], level: level,
                                    script: scripts[i]))
            }
        }
        return runs
    }

    /// Script per cluster; Common and Inherited take the script before them (or after, at the
    /// start), so punctuation does not split a run. 0 when the paragraph has no real script.
    private func resolvedScripts(_ clusters: [Cluster]) -> [UInt32] {
        var scripts = clusters.map { cluster -> UInt32 in
            for scalar in cluster.scalars {
                let script = TextBreak.script(of: scalar)
                if script != TextBreak.common && script != TextBreak.inherited { return script }
            }
            return 0
        }
        var last: UInt32 = 0
        for i in scripts.indices {
            if scripts[i] == 0 { scripts[i] = last } else { last = scripts[i] }
        }
        var next: UInt32 = 0
        for i in scripts.indices.reversed() {
            if scripts[i] == 0 { scripts[i] = next } else { next = scripts[i] }
        }
        return scripts
    }
}
