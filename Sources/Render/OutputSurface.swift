import CCairo

/// A PNG or PDF page to draw on, and its encoding: what every renderer shares.
final class OutputSurface {
    let format: OutputFormat
    let surface: OpaquePointer
    let context: OpaquePointer
    private let sink = ByteSink()

    init(format: OutputFormat, pixelWidth: Int, pixelHeight: Int, opaque: Bool) throws {
        self.format = format
        switch format {
        case .png:
            // An opaque background needs no alpha channel: RGB24 writes an RGB PNG, a quarter
            // less to compress.
            surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
                                                 Int32(pixelWidth), Int32(pixelHeight))
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(),
                                                          Double(pixelWidth), Double(pixelHeight))
        }
        context = cairo_create(surface)
        do {
            try Cairo.check(surface: surface, "creating the \(format.rawValue) surface")
        } catch {
            cairo_destroy(context)
            cairo_surface_destroy(surface)
            throw error
        }
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The encoded file.
    func finish() throws -> [UInt8] {
        try Cairo.check(context: context, "rendering")
        switch format {
        case .png:
            cairo_surface_flush(surface)
            try Cairo.check(cairo_surface_write_to_png_stream(surface, ByteSink.write,
                                                              Unmanaged.passUnretained(sink).toOpaque()), "encoding PNG")
        case .pdf:
            cairo_surface_finish(surface)
            try Cairo.check(surface: surface, "writing PDF")
        }
        return sink.bytes
    }
}
