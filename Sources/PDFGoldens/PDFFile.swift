import CPDFRaster
import Glibc
import Support

/// A PDF that cannot be read or rendered, in one line.
package struct PDFError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A PDF read by poppler-glib (a real PDF renderer, onto Cairo), not by hlrender's layout: its
/// pages as pixels, words, links, and its outline. One object is used by one thread at a time;
/// open one per thread to render pages in parallel.
package final class PDFFile {
    /// A link: its rectangle in points (y up) and where it goes.
    package struct Link: Equatable, Sendable {
        package var rect: (x1: Double, y1: Double, x2: Double, y2: Double)
        /// "https://..." for a URI, "page N" for a page of the document.
        package var target: String

        package static func == (a: Link, b: Link) -> Bool {
            a.target == b.target && a.rect.x1 == b.rect.x1 && a.rect.y1 == b.rect.y1 && a.rect.x2 == b.rect.x2 && a.rect.y2 == b.rect.y2
        }
    }

    /// An outline entry.
    package struct Bookmark: Equatable, Sendable {
        package var depth: Int
        package var title: String
        package var page: Int
    }

    private let handle: OpaquePointer
    /// poppler reads the bytes in place: kept alive with the document.
    private let bytes: UnsafeMutableBufferPointer<UInt8>

    /// Opens `data`; an error names what poppler said (or that poppler-glib is missing).
    package init(_ data: [UInt8]) throws(PDFError) {
        bytes = .allocate(capacity: max(1, data.count))
        _ = bytes.initialize(from: data)
        var error = [CChar](repeating: 0, count: 256)
        guard let handle = hl_pdf_open(bytes.baseAddress, data.count, &error, error.count) else {
            bytes.deallocate()
            throw PDFError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.handle = handle
    }

    deinit {
        hl_pdf_close(handle)
        bytes.deallocate()
    }

    package var pageCount: Int { Int(hl_pdf_page_count(handle)) }

    /// A page's size in points.
    package func size(ofPage page: Int) -> (width: Double, height: Double)? {
        var width = 0.0, height = 0.0
        return hl_pdf_page_size(handle, Int32(page), &width, &height) != 0 ? (width, height) : nil
    }

    /// The pixel size of a page at `dpi`: nil when the page cannot be read; an error when its
    /// box is not a size (negative, infinite, 1e26 points: the file says what it likes).
    package func pixelSize(ofPage page: Int, dpi: Double) throws(PDFError) -> (width: Int, height: Int)? {
        guard let size = size(ofPage: page) else { return nil }
        do {
            return (try Checked.side(size.width * dpi / 72, "width"), try Checked.side(size.height * dpi / 72, "height"))
        } catch {
            throw PDFError("page \(page + 1) is \(Checked.describe(size.width))x\(Checked.describe(size.height)) pt: its \(error.name) at \(Checked.describe(dpi)) dpi \(error.requirement)")
        }
    }

    /// A page drawn on white at `dpi`, within `maxPixels`.
    package func render(page: Int, dpi: Double, maxPixels: Int) throws(PDFError) -> RGBAImage {
        guard let (width, height) = try pixelSize(ofPage: page, dpi: dpi) else { throw PDFError("page \(page + 1) cannot be read") }
        guard Checked.pixels(width, height, within: maxPixels) else {
            throw PDFError("page \(page + 1) is \(width)x\(height) pixels at \(Checked.describe(dpi)) dpi, over the limit of \(maxPixels)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let ok = pixels.withUnsafeMutableBufferPointer { hl_pdf_render(handle, Int32(page), dpi / 72, $0.baseAddress, Int32(width), Int32(height)) }
        guard ok != 0 else { throw PDFError("page \(page + 1) cannot be rendered") }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A page's words in reading order.
    package func words(ofPage page: Int) -> [String] {
        guard let text = hl_pdf_page_text(handle, Int32(page)) else { return [] }
        defer { free(text) }
        return String(cString: text).split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// The most links read from a page: matching them is quadratic, and a hostile file may
    /// hold any number (a page past it is compared on its first ones).
    package static let maxLinksPerPage = 2_000

    package func links(ofPage page: Int) -> [Link] {
        var count: Int32 = 0
        guard let links = hl_pdf_links(handle, Int32(page), &count) else { return [] }
        defer { hl_pdf_free_links(links, count) }
        return (0..<min(Int(count), PDFFile.maxLinksPerPage)).map { i in
            let l = links[i]
            let target = l.uri.map { String(cString: $0) } ?? (l.page > 0 ? "page \(l.page)" : "(no target)")
            return Link(rect: (l.x1, l.y1, l.x2, l.y2), target: target)
        }
    }

    /// The outline, at most `limit` entries.
    package func bookmarks(limit: Int = 10_000) -> [Bookmark] {
        var count: Int32 = 0
        guard let marks = hl_pdf_bookmarks(handle, Int32(limit), &count) else { return [] }
        defer { hl_pdf_free_bookmarks(marks, count) }
        return (0..<Int(count)).map { Bookmark(depth: Int(marks[$0].depth), title: String(cString: marks[$0].title), page: Int(marks[$0].page)) }
    }
}
