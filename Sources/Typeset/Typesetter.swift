import FoundationEssentials

/// Text + style in, `Layout` out: paragraphs, bidi, per-cluster font fallback, shaping, line
/// breaking, visual order and alignment.
package final class Typesetter: @unchecked Sendable {
    private let library: FontLibrary
    private let font: FontSpec

    package init(library: FontLibrary, font: FontSpec) {
        self.library = library
        self.font = font
    }

    /// Lays out `input`; combining marks beyond `MarkLimit.marksPerBase` on one base are dropped
    /// first (`Layout.droppedMarks` says how many; offsets then refer to `Layout.text`).
    package func layout(_ input: String, style: TypesetStyle) throws -> Layout {
        try layout(prepare(input, style: style), style: style)
    }

    /// The same, shaping with a word cache from `words` (the layouts of one long text share
    /// theirs).
    package func layout(_ input: String, style: TypesetStyle, words: WordShapers) throws -> Layout {
        try layout(prepare(input, style: style), style: style, words: words)
    }

    /// The stages of laying out that do not depend on the size or the width, done once:
    /// marks capped, paragraphs, grapheme clusters, bidi levels, the font of every cluster
    /// (Fontconfig's fallback chain) and the line-break opportunities. Fitting a block to a box
    /// then lays the same prepared text out at many sizes and widths.
    package func prepare(_ input: String, style: TypesetStyle) throws -> PreparedText {
        let (text, droppedMarks) = MarkLimit.apply(input)
        var runs = try style.runs.checked(length: input.utf8.count), tags = try style.tags.checked(length: input.utf8.count)
        var formats = try style.paragraphFormats.checked(length: input.utf8.count).map { try $0.validated() }
        if droppedMarks > 0, !(runs.isEmpty && tags.isEmpty && formats.isEmpty) {
            let map = MarkLimit.offsetMap(input)
            (runs, tags, formats) = (runs.remapped(map), tags.remapped(map), formats.remapped(map))
        }
        let utf8 = Array(text.utf8)
        func prepared(_ styles: SpanStyles) throws -> [PreparedParagraph] {
            let cache = ItemizerCache(chains: styles.chains)
            return try utf8.withUnsafeBufferPointer { bytes in
                try splitParagraphs(bytes).map {
                    try style.cancellation.check()
                    return try prepareParagraph($0, text: text, styles: styles, style: style, cache: cache)
                }
            }
        }
        // The pinned fonts first: most texts need nothing else, and never load the system's.
        var styles = try SpanStyles(runs: runs, block: font, library: library, pinnedFirst: true)
        let paragraphs: [PreparedParagraph]
        do {
            paragraphs = try prepared(styles)
        } catch is NeedsWholeChain {
            styles = try SpanStyles(runs: runs, block: font, library: library)
            paragraphs = try prepared(styles)
        }
        return PreparedText(text: text, utf8: utf8, droppedMarks: droppedMarks, styles: styles, runs: runs, tags: tags,
                            formats: formats, paragraphs: paragraphs, direction: style.direction, language: style.language)
    }

    /// Shapes the prepared text at `style.size` and breaks it into lines at `style.width`.
    package func layout(_ prepared: PreparedText, style: TypesetStyle, words: WordShapers? = nil) throws -> Layout {
        let style = try style.validated()
        guard style.direction == prepared.direction, style.language == prepared.language else {
            throw TypesetError.invalidFontSpec("a text prepared for another direction or language")
        }
        let makeFont = { (face: FontFace, size: Double) in try self.library.shapingFont(face, size: size, variations: style.variations) }
        var context = LayoutContext(styles: try RunStyle.resolve(prepared.styles, block: style, font: makeFont), shapingFont: makeFont)
        context.wordSpacing = style.wordSpacing
        context.lineHeight = style.lineHeight
        context.evenPitch = style.evenPitch
        context.words = words?.take()
        defer { if let shaper = context.words { words?.give(shaper) } }
        var lines: [Line] = []
        // Each paragraph's inset, first-line indent and space above, in px (`ParagraphFormat`).
        let formats = prepared.paragraphs.map { paragraph in
            let format = prepared.formats.format(at: paragraph.paragraph.start)
            return (inset: (format?.inset ?? 0) * style.size, first: style.indent + (format?.firstLine ?? 0) * style.size,
                    above: (format?.spaceBefore ?? 0) * style.size, height: (format?.minHeight ?? 0) * style.size)
        }
        try prepared.utf8.withUnsafeBufferPointer { bytes in
            for (k, paragraph) in prepared.paragraphs.enumerated() {
                try style.cancellation.check()
                let glyphs = try paragraph.runs.map { try context.shape($0, bytes: bytes, range: $0.start..<$0.end) }
                let shaped = ShapedParagraph(paragraph: paragraph.paragraph, clusters: paragraph.clusters, runs: paragraph.runs,
                                             glyphs: glyphs, breaks: paragraph.breaks, paragraphLevel: paragraph.paragraphLevel)
                let measuring = context
                let room = style.width.map { Swift.max($0 - formats[k].inset, 1e-6) }
                for line in wrapLines(shaped, maxWidth: room, mode: style.wrap, emergencyHyphens: style.breakHyphens,
                                      indent: formats[k].first,
                                      hyphenWidth: { (try? measuring.hyphenWidth(in: shaped, at: $0, soft: $1)) ?? nil }) {
                    var built = try context.buildLine(line.range, in: shaped, bytes: bytes, lineSpacing: style.lineSpacing,
                                                      hyphen: line.hyphen)
                    built.height = Swift.max(built.height, formats[k].height)
                    lines.append(built)
                }
            }
        }
        let text = prepared.text, droppedMarks = prepared.droppedMarks
        // Every line of a paragraph is inset on its start side, its first line indented more
        // (the block is as wide as the widest line with its lead).
        let starts = { (i: Int) in i == 0 || lines[i - 1].paragraph != lines[i].paragraph }
        let lead = { (i: Int) in
            let format = formats[lines[i].paragraph]
            return Swift.max(0, format.inset + (starts(i) ? format.first : 0))
        }
        let blockWidth = style.width ?? lines.indices.map { lines[$0].width + lead($0) }.max() ?? 0
        if style.alignment == .justify {
            for i in lines.indices where i + 1 < lines.count && lines[i + 1].paragraph == lines[i].paragraph {
                Justify.stretch(&lines[i], to: blockWidth - lead(i), utf8: prepared.utf8)
            }
        }
        var top = 0.0
        for i in lines.indices {
            if i > 0, lines[i - 1].paragraph != lines[i].paragraph { top += style.paragraphSpacing }
            if starts(i) { top += formats[lines[i].paragraph].above }
            let shift = top - lines[i].top
            lines[i].top += shift
            lines[i].baseline += shift
            top = lines[i].bottom
            let indent = lead(i)
            let x = alignedX(lines[i], blockWidth: blockWidth - indent, alignment: style.alignment) + (lines[i].rtl ? 0 : indent)
            lines[i].x = x
            lines[i].moveGlyphs(dx: x, dy: lines[i].baseline)
        }
        var layout = Layout(text: text, lines: lines, fonts: context.faces, size: style.size, width: blockWidth, height: top,
                            droppedMarks: droppedMarks)
        layout.variations = style.variations.text
        layout.spans = prepared.tags
        layout.styleRuns = prepared.runs
        library.noteSyntheticStyles(in: layout, italicAsked: context.styles.contains { $0.italic })
        guard let maxLines = style.maxLines, lines.count > maxLines else { return layout }
        return try clamped(layout, prepared: prepared, style: style, maxLines: maxLines, ellipsis: style.ellipsis)
    }

    /// Whether the first paragraph of `text` runs right to left (UAX #9 P2/P3 under `direction`),
    /// without laying it out.
    package static func startsRightToLeft(_ text: String, direction: BaseDirection) throws -> Bool {
        let first = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        return try TextBreak.bidiLevels(Array(first.utf16), base: direction.icuBase).paragraph & 1 == 1
    }

    private func prepareParagraph(_ paragraph: Paragraph, text: String, styles: SpanStyles,
                                  style: TypesetStyle, cache: ItemizerCache) throws -> PreparedParagraph {
        let startIndex = text.utf8.index(text.utf8.startIndex, offsetBy: paragraph.start)
        let endIndex = text.utf8.index(startIndex, offsetBy: paragraph.end - paragraph.start)
        let slice = text[startIndex..<endIndex]
        let utf16 = Array(slice.utf16)
        let clusters = clusters(of: slice, base: paragraph.start)
        let (levels, paragraphLevel) = try TextBreak.bidiLevels(utf16, base: style.direction.icuBase)
        let runs = try Itemizer(cache: cache).runs(clusters, levels: levels,
                                                        styles: styles.isPlain ? [] : clusters.map { styles.style(at: $0.start) })
        library.willShape(with: runs.map { styles.chains[$0.style].candidates[$0.font].face })
        // UTF-16 offsets of cluster starts back to byte offsets (breaks fall on cluster starts;
        // -1: inside a cluster). An array, not a dictionary: this runs for every paragraph.
        var byteAtUnit = [Int](repeating: -1, count: utf16.count + 1)
        for cluster in clusters { byteAtUnit[cluster.utf16Start] = cluster.start }
        byteAtUnit[utf16.count] = paragraph.end
        var breaks = try TextBreak.lineBreaks(utf16, locale: style.language).compactMap { item -> TextBreak.Break? in
            let byte = byteAtUnit.indices.contains(item.offset) ? byteAtUnit[item.offset] : -1
            return byte < 0 ? nil : TextBreak.Break(offset: byte, mandatory: item.mandatory)
        }
        if style.hyphenate, let dictionary = library.hyphenation.dictionary(for: style.language) {
            breaks = Self.merge(breaks, wordBreaks(clusters, dictionary: dictionary, style: style))
        }
        return PreparedParagraph(paragraph: paragraph, clusters: clusters, runs: runs, breaks: breaks,
                                 paragraphLevel: paragraphLevel)
    }

    /// Dictionary points inside each word (a run of letter clusters), as break opportunities.
    private func wordBreaks(_ clusters: [Cluster], dictionary: Hyphenation.Dictionary, style: TypesetStyle) -> [TextBreak.Break] {
        var result: [TextBreak.Break] = []
        var i = 0
        while i < clusters.count {
            guard Hyphens.isWordCluster(clusters[i]) else { i += 1; continue }
            var j = i
            while j < clusters.count && Hyphens.isWordCluster(clusters[j]) { j += 1 }
            let word = clusters[i..<j]
            let scalars = word.flatMap(\.scalars)
            // Character index -> the cluster it ends (breaks fall between clusters only).
            var endOfCluster: [Int: Int] = [:]
            var count = 0
            for cluster in word {
                count += cluster.scalars.count
                endOfCluster[count - 1] = cluster.end
            }
            for point in Hyphenation.points(scalars, dictionary: dictionary, left: style.hyphenMin.left, right: style.hyphenMin.right) {
                if let offset = endOfCluster[point] { result.append(TextBreak.Break(offset: offset, mandatory: false, hyphenation: true)) }
            }
            i = j
        }
        return result
    }

    /// Two sorted break lists as one, an offset once (ICU's own break wins).
    private static func merge(_ a: [TextBreak.Break], _ b: [TextBreak.Break]) -> [TextBreak.Break] {
        var byOffset: [Int: TextBreak.Break] = [:]
        for item in b { byOffset[item.offset] = item }
        for item in a { byOffset[item.offset] = item }
        return byOffset.values.sorted { $0.offset < $1.offset }
    }

    private func alignedX(_ line: Line, blockWidth: Double, alignment: Alignment) -> Double {
        let free = blockWidth - line.width
        switch alignment {
        case .left: return 0
        case .right: return free
        case .center: return free / 2
        case .start, .justify: return line.rtl ? free : 0
        case .end: return line.rtl ? 0 : free
        }
    }

    func shapingFont(_ face: FontFace, size: Double) throws -> ShapingFont {
        try library.shapingFont(face, size: size)
    }
}

/// A text through the size-independent stages (see `Typesetter.prepare`), ready to be laid out
/// at any size and width. Immutable, so it may be shared between threads.
package struct PreparedText: @unchecked Sendable {
    let text: String
    let utf8: [UInt8]
    let droppedMarks: Int
    let styles: SpanStyles
    /// The styled and tagged ranges, as bytes of `text`.
    let runs: [StyledRange]
    let tags: [TaggedRange]
    /// Paragraph formats, as bytes of `text`.
    let formats: [ParagraphFormat]
    var chain: FontChain { styles.chains[0] }
    let paragraphs: [PreparedParagraph]
    let direction: BaseDirection
    let language: String
}

/// One paragraph's clusters, bidi levels, font runs and break opportunities.
struct PreparedParagraph {
    var paragraph: Paragraph
    var clusters: [Cluster]
    var runs: [ItemRun]
    var breaks: [TextBreak.Break]
    var paragraphLevel: UInt8
}
