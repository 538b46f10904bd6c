import CCairo
import CPNGCodec

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
            return try encodePNG()
        case .pdf:
            cairo_surface_finish(surface)
            try Cairo.check(surface: surface, "writing PDF")
        }
        return sink.bytes
    }

    private func encodePNG() throws -> [UInt8] {
        cairo_surface_flush(surface)
        let layout = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
            ? Int32(HL_PNG_RGB24) : Int32(HL_PNG_ARGB32_PREMULTIPLIED)
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = hl_png_encode(cairo_image_surface_get_data(surface), cairo_image_surface_get_width(surface),
                                   cairo_image_surface_get_height(surface), cairo_image_surface_get_stride(surface),
                                   layout, hl_png_default_level, &out, &length, &error, error.count)
        guard status == 0, let out else {
            throw RenderError.cairo("encoding PNG: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { hl_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}
