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

    /// The last bytes written and the offset of the first of them.
    var lastBytes: (bytes: [UInt8], start: Int) {
        forward == nil ? (bytes, 0) : (tail, total - tail.count)
    }

    /// Appends bytes of hlrender's own after Cairo's (the same way Cairo's went).
    func append(_ extra: [UInt8]) -> Bool {
        extra.withUnsafeBytes { receive($0) }
    }

    fileprivate func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        annotations?.scan(chunk, at: total)
        total += chunk.count
        if let forward {
            if keepsTail {
                tail.append(contentsOf: chunk)
                if tail.count > 2 * ByteSink.tailLimit { tail.removeFirst(tail.count - ByteSink.tailLimit) }
            }
            return forward(chunk)
        }
        bytes.append(contentsOf: chunk)
        return true
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
