import PDFPost
import CCairo
import CPNGCodec
#if canImport(Glibc)
import Glibc
#endif

/// Identifies the pixel memory a raster surface owns (freed with the surface).
nonisolated(unsafe) private let ownedPixelsKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

/// The surface a render draws on, chosen by the format's kind (an image for raster formats, a
/// PDF page), and encoded once drawing is done: drawing itself never asks which encoder will
/// run. Callers hold an `ImageCanvas` (pixels) or a `PDFDocument` (pages). Not for use from
/// two threads at once.
final class Canvas {
    let format: OutputFormat
    let surface: OpaquePointer
    let context: OpaquePointer
    private let encoding: EncodeOptions
    /// The process renders this one image (see `RenderOptions.oneShot`).
    private let oneShot: Bool
    /// Whether the surface started as a copy of the background it was given.
    let startsWithBackground: Bool
    let sink = ByteSink()
    /// A PDF canvas's document information (nil for images).
    let pdf: PDFMetadata?
    /// An SVG's accessible name: the text a reader sees (never a hidden line's), written as
    /// its `<title>` and `aria-label`.
    var svgTitle = ""
    /// Set on a PDF context while its Document structure element is open: drawing code nests
    /// in it instead of opening its own.
    nonisolated(unsafe) static var documentOpen: cairo_user_data_key_t = cairo_user_data_key_t(unused: 0)

    /// Set on a PDF context that gets hlrender's catalog update: the `PDFAnnotations` its
    /// links are noted in.
    nonisolated(unsafe) static var annotationsKey: cairo_user_data_key_t = cairo_user_data_key_t(unused: 0)

    /// Notes the visible text of the link about to be drawn on `cr` (its annotation's
    /// description), when the file gets the update.
    static func noteLink(_ cr: OpaquePointer, text: String) {
        guard let pointer = cairo_get_user_data(cr, &annotationsKey) else { return }
        Unmanaged<PDFAnnotations>.fromOpaque(pointer).takeUnretainedValue().noteLink(text)
    }

    /// Notes the structure element about to be opened on `cr` (its language, a Figure's
    /// alternative text), when the file gets the update.
    static func noteElement(_ cr: OpaquePointer, language: String?, alt: String? = nil) {
        guard let pointer = cairo_get_user_data(cr, &annotationsKey) else { return }
        Unmanaged<PDFAnnotations>.fromOpaque(pointer).takeUnretainedValue().noteElement(language: language, alt: alt)
    }

    /// Whether `cr` draws inside an open Document structure element.
    static func isDocumentOpen(_ cr: OpaquePointer) -> Bool { cairo_get_user_data(cr, &documentOpen) != nil }

    /// Opens the structure tree's root before the first text block, and keeps it open for the
    /// whole document (a structure element may span pages). Not before: Cairo 1.16 refuses a
    /// file (at finish, "invalid ... nesting") where anything is drawn inside an element before
    /// its first child, and backgrounds are painted before any text.
    static func openDocument(_ cr: OpaquePointer) {
        guard !isDocumentOpen(cr) else { return }
        cairo_tag_begin(cr, "Document", "")
        cairo_set_user_data(cr, &documentOpen, UnsafeMutableRawPointer(bitPattern: 1), nil)
    }

    /// `background`, when given, is the raster canvas's first pixels (Cairo's words and stride):
    /// copied into fresh memory rather than zeroed first and copied over.
    /// `oneShot`: see `RenderOptions.oneShot` (huge pages for the pixels, two threads for a PNG).
    init(format: OutputFormat, pixelWidth: Int, pixelHeight: Int, opaque: Bool, encoding: EncodeOptions = EncodeOptions(),
         pdf: PDFMetadata = PDFMetadata(), background: [UInt8]? = nil, oneShot: Bool = false) throws {
        self.format = format
        self.encoding = encoding
        self.oneShot = oneShot
        switch format {
        case .png, .jpeg, .webp, .avif:
            // An opaque background needs no alpha channel: RGB24 writes an RGB PNG, a quarter
            // less to compress.
            let cairoFormat = opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
            if let background, let raster = Canvas.raster(cairoFormat, pixelWidth, pixelHeight, from: background, oneShot: oneShot) {
                surface = raster
                startsWithBackground = true
            } else {
                surface = Canvas.raster(cairoFormat, pixelWidth, pixelHeight, from: nil, oneShot: oneShot)
                    ?? cairo_image_surface_create(cairoFormat, Int32(pixelWidth), Int32(pixelHeight))
                startsWithBackground = false
            }
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(),
                                                          Double(pixelWidth), Double(pixelHeight))
            pdf.apply(to: surface)
            startsWithBackground = false
        case .svg:
            surface = cairo_svg_surface_create_for_stream(ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(),
                                                          Double(pixelWidth), Double(pixelHeight))
            // Pixels, as a raster render of the same card has: width="1080px", not points.
            cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
            startsWithBackground = false
        }
        context = cairo_create(surface)
        self.pdf = format == .pdf ? pdf : nil
        if format == .pdf && pdf.needsUpdate {
            sink.keepsTail = true
            sink.annotations = PDFAnnotations()
            if pdf.tagged { sink.markArtifacts() }
            cairo_set_user_data(context, &Canvas.annotationsKey, Unmanaged.passUnretained(sink.annotations!).toOpaque(), nil)
        }

        do {
            try Cairo.check(surface: surface, "creating the \(format.rawValue) surface")
        } catch {
            cairo_destroy(context)
            cairo_surface_destroy(surface)
            throw error
        }
    }

    /// An image surface over fresh memory in huge pages (see `hl_big_alloc`), cleared or a copy
    /// of `pixels`, which the surface frees; nil when the sizes disagree or memory runs out
    /// (the caller then lets Cairo allocate a cleared surface).
    private static func raster(_ format: cairo_format_t, _ width: Int, _ height: Int, from pixels: [UInt8]?, oneShot: Bool) -> OpaquePointer? {
        let stride = Int(cairo_format_stride_for_width(format, Int32(width)))
        let (size, overflow) = stride.multipliedReportingOverflow(by: height)
        guard stride > 0, !overflow, pixels.map({ $0.count == size }) ?? true, let memory = hl_big_alloc(size, oneShot ? 1 : 0) else { return nil }
        if let pixels { pixels.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: size) } }
        let data = memory.assumingMemoryBound(to: UInt8.self)
        let surface = cairo_image_surface_create_for_data(data, format, Int32(width), Int32(height), Int32(stride))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_surface_set_user_data(surface, ownedPixelsKey, memory, { hl_big_free($0) }) == CAIRO_STATUS_SUCCESS
        else {
            cairo_surface_destroy(surface)
            hl_big_free(memory)
            return nil
        }
        return surface
    }

    /// A raster canvas's pixels set to `pixels` (Cairo's words and stride, the whole surface):
    /// an animation starts each frame from its base on the same canvas.
    func reset(to pixels: [UInt8]) {
        cairo_surface_flush(surface)
        let size = Int(cairo_image_surface_get_stride(surface)) * Int(cairo_image_surface_get_height(surface))
        guard pixels.count == size, let data = cairo_image_surface_get_data(surface) else { return }
        pixels.withUnsafeBytes { data.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: size) }
        cairo_surface_mark_dirty(surface)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
        // A streamed file's last bytes may still be on their way to the caller's `forward`.
        _ = sink.drain()
    }

    /// The encoded file, in the canvas's format.
    func finish() throws -> [UInt8] {
        try Cairo.check(context: context, "rendering")
        if format == .pdf {
            if Canvas.isDocumentOpen(context) { cairo_tag_end(context, "Document") }
            cairo_surface_finish(surface)
            try Cairo.check(surface: surface, "writing PDF")
            guard try sink.finishFilter() else { throw RenderError.image("writing PDF: error while writing") }
            if let pdf, pdf.needsUpdate {
                // Read in a scope of its own: holding the file's bytes while appending would copy them.
                let update = { () -> [UInt8]? in
                    let (tail, start) = sink.lastBytes
                    return PDFTail(tail, start: start).flatMap { PDFCatalog.update($0, pdf: pdf, annotations: sink.annotations) }
                }()
                guard let update else {
                    throw RenderError.image("writing PDF: Cairo's catalog was not where it is expected (the language could not be added)")
                }
                guard sink.append(update) else { throw RenderError.image("writing PDF: the catalog update could not be written") }
            }
            return sink.bytes
        }
        if format == .svg {
            cairo_surface_finish(surface)
            try Cairo.check(surface: surface, "writing SVG")
            guard sink.flush() else { throw RenderError.image("writing SVG: error while writing") }
            return SVGDocument.finished(sink.bytes, title: svgTitle)
        }
        return try encode(as: format.rasterFormat!, options: encoding)
    }

    /// A drawn raster canvas encoded as `format` with `options`: the same drawing can be
    /// encoded several ways.
    func encode(as format: RasterFormat, options: EncodeOptions) throws -> [UInt8] {
        // JPEG flattens the pixels over white in place: do it on a copy.
        guard format == .jpeg, cairo_image_surface_get_format(surface) != CAIRO_FORMAT_RGB24 else {
            return try ImageEncoder.encode(surface, format: format, options: options, oneShot: oneShot)
        }
        let copy = cairo_surface_create_similar_image(surface, CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(surface),
                                                      cairo_image_surface_get_height(surface))!
        defer { cairo_surface_destroy(copy) }
        let cr = cairo_create(copy)!
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        return try ImageEncoder.encode(copy, format: format, options: options, oneShot: oneShot)
    }
}

/// A drawn image, owned by the caller: encoded as any raster format, as often as wanted (a
/// benchmark times each encoder on the same pixels).
package final class ImageCanvas {
    let canvas: Canvas
    init(_ canvas: Canvas) { self.canvas = canvas }

    package func encode(as format: RasterFormat, options: EncodeOptions) throws -> [UInt8] {
        try canvas.encode(as: format, options: options)
    }
}
