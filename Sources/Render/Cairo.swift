import PDFPost
import CCairo

/// Status checks and byte-stream output for Cairo: every Cairo object is checked through here.
enum Cairo {
    static func check(_ status: cairo_status_t, _ what: String) throws {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo("\(what): \(String(cString: cairo_status_to_string(status)))")
        }
    }

    static func check(surface: OpaquePointer, _ what: String) throws {
        try check(cairo_surface_status(surface), what)
    }

    static func check(context: OpaquePointer, _ what: String) throws {
        try check(cairo_status(context), what)
    }
}

/// Collects what Cairo writes through a stream callback (PNG or PDF bytes). A streamed file
/// is passed on from a `SinkWriter`'s thread: between a `flush` and the `drain` after it, that
/// thread owns the delivery side (`filter`, `annotations`' scan, `total`, `tail`, `forward`)
/// and the drawing thread touches only `pending`.
final class ByteSink: @unchecked Sendable {
    var bytes: [UInt8] = []
    /// When set, bytes go here as Cairo writes them (a file being streamed) instead of `bytes`;
    /// false stops the document with a write error.
    var forward: ((UnsafeRawBufferPointer) -> Bool)?
    /// Bytes written so far, and (when streaming) the last of them: what a PDF's catalog
    /// update reads (`PDFCatalog`).
    private(set) var total = 0
    private var tail = TailRing(limit: ByteSink.tailLimit)
    /// Keep the tail of a streamed file (a tagged PDF's catalog update reads it).
    var keepsTail = false
    /// Catches Cairo's link annotations as they pass (the catalog update describes them).
    var annotations: PDFAnnotations?
    /// Rewrites a tagged PDF's page contents on the way (their Artifacts).
    private var filter: PDFStreamFilter?
    static let tailLimit = 4 << 20

    /// Whether page contents pass through a `PDFStreamFilter`, which deflates each again.
    var rewritesContent: Bool { filter != nil }

    /// Sends what Cairo writes through a `PDFStreamFilter` (a tagged PDF's Artifacts).
    func markArtifacts() {
        filter = PDFStreamFilter { [unowned self] in self.deliver($0) }
    }

    /// The last bytes written and the offset of the first of them (after a `finishFilter`).
    var lastBytes: (bytes: [UInt8], start: Int) {
        forward == nil ? (bytes, 0) : (tail.bytes, total - tail.count)
    }

    /// Appends bytes of hlrender's own after Cairo's (the same way Cairo's went, past the filter).
    func append(_ extra: [UInt8]) -> Bool {
        flush() && drain() && extra.withUnsafeBytes { deliver($0) }
    }

    /// A streamed file's delivery, off the drawing thread (made on the first flush).
    private var writer: SinkWriter?

    /// Waits until every flushed byte is delivered; false when a delivery failed. A streamed
    /// file's owner must not go away before this (its `forward` is called until then).
    func drain() -> Bool { writer?.drain() ?? true }

    /// Bytes received but not yet passed on: Cairo writes a PDF in tens of thousands of small
    /// pieces (a printf each), which would be as many write calls, scans and filter steps.
    private var pending: [UInt8] = []
    static let flushBytes = 256 << 10

    fileprivate func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard forward != nil || filter != nil || annotations != nil else {
            total += chunk.count
            bytes.append(contentsOf: chunk)
            return true
        }
        if pending.capacity < ByteSink.flushBytes { pending.reserveCapacity(ByteSink.flushBytes) }
        pending.append(contentsOf: chunk)
        return pending.count < ByteSink.flushBytes || flush()
    }

    /// Passes on what is pending; false when the forward refused it (or, streaming, refused
    /// earlier bytes: then they are passed on from the writer's thread, `drain` waits for
    /// them). Called when the buffer fills, and before the file's end is read or the document
    /// returns.
    func flush() -> Bool {
        guard !pending.isEmpty else { return true }
        guard forward != nil else {
            let sent = pending.withUnsafeBytes { pass($0) }
            pending.removeAll(keepingCapacity: true)
            return sent
        }
        let buffer = pending
        pending = []
        if writer == nil { writer = SinkWriter() }
        return writer!.send { [self] in buffer.withUnsafeBytes { pass($0) } }
    }

    private func pass(_ chunk: UnsafeRawBufferPointer) -> Bool {
        filter.map { $0.take(chunk) } ?? deliver(chunk)
    }

    /// Ends the filter (its held cross-reference table, rewritten) once Cairo has finished.
    func finishFilter() throws -> Bool {
        guard flush(), drain() else { return false }
        guard let filter else { return true }
        self.filter = nil
        do {
            return try filter.finish()
        } catch let error as PDFWriteError {
            throw RenderError.image(error.description)  // a render's error, as every front end maps it
        }
    }

    /// The file's next bytes, as they are in the file: scanned, kept or forwarded.
    private func deliver(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let start = total
        total += chunk.count
        annotations?.scan(chunk, at: start)
        guard let forward else {
            bytes.append(contentsOf: chunk)
            return true
        }
        if keepsTail { tail.append(chunk) }
        return forward(chunk)
    }

    /// The C callback; the sink travels as the closure pointer (C callbacks capture nothing).
    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        return sink.receive(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }
}

/// The end of a streamed PDF: the last `limit` bytes before the chunk where Cairo's
/// cross-reference table begins, in a ring, and every byte from that chunk on. The table holds
/// 20 bytes per object (300,000 tagged paragraphs make it 12 MB), and the catalog update needs
/// all of it and the catalog just before it, so the part after the table's start is kept
/// whole; before it one buffer of `limit` bytes, however long the file.
struct TailRing {
    let limit: Int
    private var ring: [UInt8] = []
    /// Once the ring is full: where the oldest byte is, and the next one goes.
    private var next = 0
    /// From the chunk holding the last "xref" keyword at a line's start on (nil before it).
    private var table: [UInt8]?
    /// The last bytes of the previous chunk: a keyword may straddle two.
    private var window: [UInt8] = []
    private static let keyword = Array("\nxref\n0 ".utf8)

    init(limit: Int) { self.limit = limit }

    var count: Int { ring.count + (table?.count ?? 0) }

    /// The bytes kept, oldest first.
    var bytes: [UInt8] { Array(ring[next...]) + ring[..<next] + (table ?? []) }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        let seen = window + chunk
        window = Array(seen.suffix(Self.keyword.count - 1))
        if PDFBytes.find(Self.keyword, in: seen, from: 0) != nil {
            // A table starts here (an earlier match was not the last one: it goes to the ring).
            if let earlier = table { earlier.withUnsafeBytes { keep($0) } }
            table = Array(chunk)
        } else if table != nil {
            table! += chunk
        } else {
            keep(chunk)
        }
    }

    private mutating func keep(_ chunk: UnsafeRawBufferPointer) {
        var rest = chunk[...]
        if rest.count >= limit {
            (ring, next) = (Array(rest.suffix(limit)), 0)
            return
        }
        if ring.count < limit {
            let fill = min(limit - ring.count, rest.count)
            ring.append(contentsOf: rest.prefix(fill))
            rest = rest.dropFirst(fill)
        }
        while !rest.isEmpty {
            let n = min(limit - next, rest.count)
            ring.withUnsafeMutableBytes { ring in
                UnsafeMutableRawBufferPointer(rebasing: ring[next..<(next + n)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: rest.prefix(n)))
            }
            next = (next + n) % limit
            rest = rest.dropFirst(n)
        }
    }
}

extension Color {
    /// Makes this colour the context's source.
    func setSource(_ cr: OpaquePointer) { cairo_set_source_rgba(cr, red, green, blue, alpha) }
}
