import CCairo
import CPNGCodec
import PDFPost

/// A PDF of several pages, each a scene, written through one Cairo surface: fonts are embedded
/// once for the whole document (vector text kept), and each page's drawing is handed to Cairo
/// as it is added, so no page's pixels are held after it is done. Not for use from two threads
/// at once; pages come in the order they are added.
package final class PDFDocument {
    private let canvas: Canvas
    private let options: RenderOptions
    private let fonts: FontContext
    package private(set) var pageCount = 0

    /// An empty document; `options.pdf` holds its metadata, `options.scale` scales every page.
    /// With `stream`, the file goes there as Cairo writes it (pages as they are added, fonts at
    /// the end) and `finish` returns nothing: memory then holds no part of the file.
    package init(options: RenderOptions, fonts: FontContext, stream: ((UnsafeRawBufferPointer) -> Bool)? = nil) throws {
        self.fonts = fonts
        var options = options
        options.format = .pdf
        self.options = options
        canvas = try Canvas(format: .pdf, pixelWidth: 1, pixelHeight: 1, opaque: true, pdf: options.pdf)
        canvas.sink.forward = stream
    }

    /// Draws `scene` on a new page of its own size.
    package func add(_ scene: Scene) throws { try add(page(scene)) }

    /// `scene` ready for `add`: its size, its fonts opened and its glyphs checked. Safe to call
    /// from another thread while this one adds pages: a long document makes its next pages so
    /// while the thread that has Cairo write the file only draws.
    package func page(_ scene: Scene) throws -> PDFPage {
        PDFPage(scene: scene, faces: try FontFaces.of(scene, in: fonts, textMapped: true),
                size: try Renderer.pixelSize(width: scene.width, height: scene.height, options: options))
    }

    /// Draws `page` (from `page(_:)`) on a new page of its own size.
    package func add(_ page: PDFPage) throws {
        let (scene, faces, size) = (page.scene, page.faces, page.size)
        cairo_pdf_surface_set_size(canvas.surface, Double(size.0), Double(size.1))
        try Renderer.draw(scene, on: canvas, faces: faces, pixelSize: size, options: options)
        // Cairo writes the page's streams now, its content first. When the sink's filter
        // inflates and deflates that content again (a tagged PDF), Cairo stores it rather than
        // compress it twice; the streams after it (pictures) are Cairo's alone to compress.
        let rewritten = canvas.sink.rewritesContent
        if rewritten { hl_deflate_store_next(1) }
        cairo_show_page(canvas.context)
        if rewritten { hl_deflate_store_next(0) }
        try Cairo.check(context: canvas.context, "writing PDF page \(pageCount + 1)")
        pageCount += 1
    }

    /// A document-outline entry (bookmark) pointing at `y` (layout px from the top) on `page`
    /// (1-based); nested under `parent` (an id this returned) or at the top level.
    @discardableResult
    package func addBookmark(_ title: String, page: Int, y: Double, parent: Int32? = nil) -> Int32 {
        cairo_pdf_surface_add_outline(canvas.surface, parent ?? Int32(CAIRO_PDF_OUTLINE_ROOT), title,
                                             "page=\(page) pos=[0 \(y * options.scale)]", cairo_pdf_outline_flags_t(0))
    }

    /// The finished file. A document with no page gets none (Cairo would add a blank one).
    package func finish() throws -> [UInt8] {
        guard pageCount > 0 else { throw RenderError.invalidOption("the PDF has no pages") }
        return try canvas.finish()
    }
}

/// A scene made ready for a document's page by `PDFDocument.page`.
package struct PDFPage: Sendable {
    let scene: Scene
    let faces: FontFaces
    let size: (Int, Int)
}

extension PDFMetadata {
    /// The information Cairo writes itself: title, author, subject, keywords, creator, dates.
    func apply(to surface: OpaquePointer) {
        let set = { (key: cairo_pdf_metadata_t, value: String?) in
            if let value { cairo_pdf_surface_set_metadata(surface, key, value) }
        }
        set(CAIRO_PDF_METADATA_TITLE, title)
        set(CAIRO_PDF_METADATA_AUTHOR, author)
        set(CAIRO_PDF_METADATA_SUBJECT, subject)
        set(CAIRO_PDF_METADATA_KEYWORDS, keywords)
        set(CAIRO_PDF_METADATA_CREATOR, "hlrender")
        if let created {
            let date = PDFMetadata.iso8601(created)
            set(CAIRO_PDF_METADATA_CREATE_DATE, date)
            set(CAIRO_PDF_METADATA_MOD_DATE, date)
        }
    }
}
