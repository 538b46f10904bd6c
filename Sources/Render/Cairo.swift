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

    /// The C callback; the sink travels as the closure pointer (C callbacks capture nothing).
    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        if let forward = sink.forward {
            return forward(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}

extension Color {
    /// Makes this colour the context's source.
    func setSource(_ cr: OpaquePointer) { cairo_set_source_rgba(cr, red, green, blue, alpha) }
}
