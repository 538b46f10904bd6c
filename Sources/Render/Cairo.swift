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

/// Collects what Cairo writes through a stream callback (PNG or PDF bytes).
final class ByteSink {
    var bytes: [UInt8] = []
    /// When set, bytes go here as Cairo writes them (a file being streamed) instead of `bytes`;
    /// false stops the document with a write error.
    var forward: ((UnsafeRawBufferPointer) -> Bool)?
    /// Bytes written so far, and (when streaming) the last of them: what a PDF's catalog
    /// update reads (`PDFCatalog`).
    private(set) var total = 0
    private(set) var tail: [UInt8] = []
    /// Keep the tail of a streamed file (a tagged PDF's catalog update reads it).
    var keepsTail = false
    /// Catches Cairo's link annotations as they pass (the catalog update describes them).
    var annotations: PDFAnnotations?
    static let tailLimit = 4 << 20

    /// The last bytes written and the offset of the first of them (after a `flush`).
    var lastBytes: (bytes: [UInt8], start: Int) {
        forward == nil ? (bytes, 0) : (tail, total - tail.count)
    }

    /// Appends bytes of hlrender's own after Cairo's (the same way Cairo's went).
    func append(_ extra: [UInt8]) -> Bool {
        extra.withUnsafeBytes { receive($0) } && flush()
    }

    /// Bytes received but not yet forwarded: Cairo writes a PDF in tens of thousands of small
    /// pieces (a printf each), which would be as many write calls and scans.
    private var pending: [UInt8] = []
    /// How much of an in-memory file the annotation catcher has seen.
    private var scanned = 0
    static let flushBytes = 256 << 10

    fileprivate func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard forward != nil else {
            total += chunk.count
            bytes.append(contentsOf: chunk)
            return true
        }
        if pending.capacity < ByteSink.flushBytes { pending.reserveCapacity(ByteSink.flushBytes) }
        pending.append(contentsOf: chunk)
        total += chunk.count
        return pending.count < ByteSink.flushBytes || flush()
    }

    /// Forwards what is pending (a streamed file); false when the forward refused it. Called
    /// when the buffer fills, and before the file's end is read or the document returns.
    func flush() -> Bool {
        guard let forward else {
            // A file held in memory is scanned once here, not a printf's worth at a time.
            if let annotations, scanned < bytes.count {
                bytes[scanned...].withUnsafeBytes { annotations.scan($0, at: scanned) }
                scanned = bytes.count
            }
            return true
        }
        guard !pending.isEmpty else { return true }
        let start = total - pending.count
        let sent = pending.withUnsafeBytes { chunk -> Bool in
            annotations?.scan(chunk, at: start)
            if keepsTail {
                tail.append(contentsOf: chunk)
                if tail.count > 2 * ByteSink.tailLimit { tail.removeFirst(tail.count - ByteSink.tailLimit) }
            }
            return forward(chunk)
        }
        pending.removeAll(keepingCapacity: true)
        return sent
    }

    /// The C callback; the sink travels as the closure pointer (C callbacks capture nothing).
    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        return sink.receive(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }
}

extension Color {
    /// Makes this colour the context's source.
    func setSource(_ cr: OpaquePointer) { cairo_set_source_rgba(cr, red, green, blue, alpha) }
}
