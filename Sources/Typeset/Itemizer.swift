/// A maximal stretch of clusters with one font, one bidi level and one script: the unit HarfBuzz
/// shapes.
struct ItemRun {
    var start: Int
    var end: Int
    /// Index into the chain's candidates.
    var font: Int
    var level: UInt8
    var script: UInt32
    var rtl: Bool { level & 1 == 1 }
}

/// Assigns each cluster a font (per-cluster fallback) and a script, then merges runs.
struct Itemizer {
    var chain: FontChain

    /// The font for `cluster`: colour fonts first for emoji presentation; the previous
    /// cluster's (non-colour) font for neutral characters it covers; else the first font covering the whole
    /// cluster, else the first covering its base character, else the primary font (.notdef).
    func font(for cluster: Cluster, previous: Int?) -> Int {
        let needed = cluster.visibleScalars
        if needed.isEmpty { return previous ?? 0 }
        let covers = { (index: Int) in needed.allSatisfy(chain.candidates[index].covers) }
        if cluster.wantsEmojiPresentation,
           let emoji = chain.candidates.indices.first(where: { chain.candidates[$0].face.isColor && covers($0) }) {
            return emoji
        }
        // Spaces and punctuation stay with the text around them, but not with an emoji font
        // (its space is an emoji-wide blank).
        if let previous, cluster.isNeutral, !chain.candidates[previous].face.isColor, covers(previous) {
            return previous
        }
        if let index = chain.candidates.indices.first(where: covers) { return index }
        return chain.candidates.indices.first { chain.candidates[$0].covers(needed[0]) } ?? 0
    }

    func runs(_ clusters: [Cluster], levels: [UInt8]) -> [ItemRun] {
        var fonts: [Int] = []
        var previous: Int?
        for cluster in clusters {
            let font = font(for: cluster, previous: previous)
            fonts.append(font)
            previous = font
        }
        let scripts = resolvedScripts(clusters)
        var runs: [ItemRun] = []
        for (i, cluster) in clusters.enumerated() {
            let level = levels.isEmpty ? 0 : levels[cluster.utf16Start]
            if var last = runs.last, last.font == fonts[i], last.level == level, last.script == scripts[i] {
                last.end = cluster.end
                runs[runs.count - 1] = last
            } else {
                runs.append(ItemRun(start: cluster.start, end: cluster.end, font: fonts[i], level: level,
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
