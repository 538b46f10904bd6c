import Render
import Typeset

/// Restricted mode for a paged text: hidden from `restriction.visibleLines` (a line of the
/// whole text), with scrambled glyphs from `scrambleSeed`, or the real ones when it is nil.
package struct PageRestriction: Sendable {
    package var restriction: Restriction
    package var scrambleSeed: UInt64?
    package init(_ restriction: Restriction, scrambleSeed: UInt64?) {
        self.restriction = restriction
        self.scrambleSeed = scrambleSeed
    }
}

/// A long text laid out a few paragraphs at a time, so that memory follows a page, not the
/// document: chunks end at line feeds (a paragraph never spans two), each is laid out alone
/// and placed in the whole text's coordinates (byte offsets, paragraph numbers, y).
struct ChunkedText: Sendable {
    enum Piece: Sendable {
        case plain(Layout)
        case scrambled(ScrambledLayout)

        var layout: Layout {
            switch self {
            case let .plain(layout): layout
            case let .scrambled(scrambled): scrambled.layout
            }
        }
    }

    struct Chunk: Sendable {
        var bytes: Range<Int>
        var firstLine = 0
        var firstParagraph = 0
        var dy = 0.0
    }

    /// About this many bytes per chunk; texts up to `keepBytes` keep their layouts in memory
    /// between the measuring pass and the drawing pass, longer ones keep their lines in a
    /// `LineSpool` (each chunk is laid out once either way).
    static let chunkBytes = 32 * 1024
    static let keepBytes = 1 << 20

    let text: String
    let typesetter: Typesetter
    let style: TypesetStyle
    let restriction: PageRestriction?
    /// The words shaped so far, for the next chunks.
    let words = WordShapers()
    private(set) var chunks: [Chunk] = []
    /// Combining marks dropped over the limit, in the whole text.
    private(set) var droppedMarks = 0
    private var kept: [Layout] = []
    /// Long texts: each chunk's layout without its lines (fonts, spans), the lines spooled.
    private var shells: [Layout] = []
    private var spool: LineSpool?

    /// Texts up to this many bytes keep their layouts in memory (a parameter for tests).
    let keepBytes: Int
    /// The caller's temporary folder, for the spool.
    let spoolFolder: String
    /// Whether the lines wait in a spool (the text is longer than `keepBytes`).
    var isSpooled: Bool { spool != nil }

    init(_ text: String, typesetter: Typesetter, style: TypesetStyle, restriction: PageRestriction?,
         keepBytes: Int = ChunkedText.keepBytes, spoolFolder: String) {
        self.keepBytes = keepBytes
        self.spoolFolder = spoolFolder
        self.text = text
        self.typesetter = typesetter
        self.style = style
        self.restriction = restriction
        // --max-lines clamps the whole text: one chunk.
        let size = style.maxLines == nil ? ChunkedText.chunkBytes : Int.max
        var source = text
        chunks = source.withUTF8 { Self.cut($0, size: size).map { Chunk(bytes: $0) } }
    }

    /// `bytes` cut at the first lone line feed (a CR LF pair is one paragraph separator, which
    /// must not be cut) at least `size` bytes into each chunk; the line feed belongs to none.
    /// Searched from there, not read byte by byte: this is the start of every paged run.
    static func cut(_ bytes: UnsafeBufferPointer<UInt8>, size: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = [], start = 0
        // The earliest line feed that ends a chunk is the size's last byte.
        while size <= bytes.count - start {
            var from = start + size - 1, cut: Int?
            while let feed = bytes[from...].firstIndex(of: 0x0A) {
                if feed == 0 || bytes[feed - 1] != 0x0D { cut = feed; break }
                from = feed + 1
            }
            guard let cut else { break }
            ranges.append(start..<cut)
            start = cut + 1
        }
        ranges.append(start..<bytes.count)
        return ranges
    }

    /// First pass: every line's box in the whole text's coordinates. Chunks are laid out
    /// independently, a few at once (one per core); their boxes are placed in order.
    mutating func measure() throws -> [PageBreaker.Box] {
        var boxes: [PageBreaker.Box] = []
        var dy = 0.0, paragraph = 0
        let keep = text.utf8.count <= keepBytes
        spool = keep ? nil : LineSpool(folder: spoolFolder)
        var next = 0
        while next < chunks.count {
            // Two chunks per core a round: a slow chunk holds up less of the round.
            let batch = next..<min(next + 2 * ChunkWork.lanes, chunks.count)
            let source = self
            let spooling = spool != nil
            let results = try ChunkWork.map(batch) { i in
                let layout = try source.typesetter.layout(source.chunkText(i), style: source.chunkStyle(i), words: source.words)
                return (layout, spooling ? LineCodec.encode(layout.lines) : [])
            }
            for (i, (layout, lines)) in zip(batch, results) {
                // An empty line holding room (a picture's) is not blank: it starts a page too.
                let formats = style.paragraphFormats.isEmpty ? [] : chunkStyle(i).paragraphFormats
                // Chunks end at paragraph ends: the paragraph spacing goes between them too.
                if i > 0 { dy += style.paragraphSpacing }
                chunks[i].firstLine = boxes.count
                chunks[i].firstParagraph = paragraph
                chunks[i].dy = dy
                var paragraphStart = (paragraph: -1, byte: 0)
                for line in layout.lines {
                    if line.paragraph != paragraphStart.paragraph { paragraphStart = (line.paragraph, line.start) }
                    let format = formats.isEmpty ? nil : formats.format(at: paragraphStart.byte)
                    var box = PageBreaker.Box(top: line.top + dy, bottom: line.bottom + dy, paragraph: line.paragraph + paragraph,
                                              blank: line.isBlank && (format?.minHeight ?? 0) == 0)
                    box.keepWithNext = format?.keepWithNext ?? false
                    boxes.append(box)
                }
                paragraph += (layout.lines.last?.paragraph ?? -1) + 1
                dy += layout.height
                droppedMarks += layout.droppedMarks
                if keep { kept.append(layout) }
                if let spool {
                    var shell = layout
                    (shell.lines, shell.text) = ([], "")
                    shells.append(shell)
                    // A refused write (a full disk) only costs time: the chunk is laid out again.
                    spool.put(i, lines)
                }
            }
            next = batch.upperBound
        }
        return boxes
    }

    /// Whether chunk `i` takes work to have again when drawn (read back, or laid out again):
    /// worth starting on another core ahead of time.
    func needsWork(_ i: Int) -> Bool { i >= kept.count }

    /// The chunk as measured (kept, or its lines read back from the spool; laid out again only
    /// where the spool refused them), scrambled from the hidden line on, and placed in the
    /// text (its y stays the chunk's own: `Chunk.dy` moves it).
    func piece(_ i: Int) throws -> Piece {
        let chunk = chunks[i]
        let layout: Layout
        if i < kept.count {
            layout = kept[i]
        } else if let spool, spool.has(i) {
            var shell = shells[i]
            (shell.lines, shell.text) = (try spool.lines(i), chunkText(i))
            layout = shell
        } else {
            layout = try typesetter.layout(chunkText(i), style: chunkStyle(i), words: words)
        }
        guard let restriction, let seed = restriction.scrambleSeed else {
            return .plain(layout.placed(in: text, byteOffset: chunk.bytes.lowerBound, paragraphOffset: chunk.firstParagraph))
        }
        let scrambled = try typesetter.scrambled(layout, fromLine: max(0, restriction.restriction.visibleLines - chunk.firstLine),
                                                 seed: seed &+ UInt64(i))
        return .scrambled(scrambled.placed(in: text, byteOffset: chunk.bytes.lowerBound, paragraphOffset: chunk.firstParagraph))
    }

    /// The chunk holding global line `line`.
    func chunk(ofLine line: Int) -> Int {
        var lo = 0, hi = chunks.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if chunks[mid].firstLine <= line { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The style with the spans of chunk `i`, as bytes of the chunk.
    private func chunkStyle(_ i: Int) -> TypesetStyle {
        style.runs.isEmpty && style.tags.isEmpty && style.paragraphFormats.isEmpty ? style : style.restricted(to: chunks[i].bytes)
    }

    private func chunkText(_ i: Int) -> String {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: chunks[i].bytes.lowerBound)
        return String(decoding: utf8[start..<utf8.index(start, offsetBy: chunks[i].bytes.count)], as: UTF8.self)
    }
}
