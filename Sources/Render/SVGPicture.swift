import CSVGRaster
import Glibc
import Support

/// An SVG picture (a logo, an icon) from untrusted bytes, rasterised by librsvg at the size it
/// is drawn. The one guard for SVG input (`check`, SVGCheck.swift) runs before librsvg reads a
/// byte; librsvg is given no base file either, and the raster is checked against the pixel
/// limit before it is made.
package final class SVGPicture: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The document's own size in pixels (its width and height, else its viewBox).
    package let width: Double
    package let height: Double
    private let lock = Lock()

    package init(_ bytes: [UInt8]) throws {
        try Self.check(bytes)
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = bytes.withUnsafeBufferPointer({ hl_svg_open($0.baseAddress, $0.count, &error, error.count) }) else {
            throw RenderError.image("SVG: " + Self.text(error))
        }
        var w = 0.0, h = 0.0
        guard hl_svg_size(handle, &w, &h) != 0, w.isFinite, h.isFinite, w > 0, h > 0 else {
            hl_svg_close(handle)
            throw RenderError.image("SVG: no width, height or viewBox to size it by")
        }
        (self.handle, width, height) = (handle, w, h)
    }

    deinit { hl_svg_close(handle) }

    /// The picture drawn at the window's full size, only the window made: straight RGBA of
    /// the window's size, checked against `maxPixels` first. librsvg handles are not for two
    /// threads at once: one at a time.
    package func raster(_ window: RasterWindow, maxPixels: Int) throws -> RasterImage {
        let (width, height) = (window.width, window.height)
        guard width > 0, height > 0, Checked.pixels(width, height, within: maxPixels) else {
            throw RenderError.surfaceTooLarge("the SVG picture", width: width, height: height, limit: maxPixels)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var error = [CChar](repeating: 0, count: 512)
        let drawn = lock.withLock {
            hl_svg_render(handle, &pixels, Int32(width), Int32(height), Double(window.x), Double(window.y),
                          Double(window.fullWidth), Double(window.fullHeight), &error, error.count)
        }
        guard drawn != 0 else { throw RenderError.image("SVG: " + Self.text(error)) }
        do { return try RasterImage(width: width, height: height, pixels: pixels) } catch { throw RenderError.image("\(error)") }
    }

    /// The picture as vectors (`VectorPicture`), or nil when librsvg's drawing of it uses what
    /// the replay does not know (embedded images, say): then it is drawn as an image.
    package func vector() -> VectorPicture? {
        script().flatMap { VectorPicture(script: $0.text, width: $0.width, height: $0.height)?.checked() }
    }

    /// librsvg's drawing of the picture as a CairoScript at its own size (rounded up, at most
    /// 16,384 px a side), for `VectorPicture` to replay; nil when there is none.
    package func script() -> (text: String, width: Double, height: Double)? {
        var script: UnsafeMutablePointer<CChar>?
        var length = 0
        var error = [CChar](repeating: 0, count: 512)
        guard let w = try? Checked.side(width, "width", limit: 16384), let h = try? Checked.side(height, "height", limit: 16384) else { return nil }
        let made = lock.withLock { hl_svg_script(handle, Int32(w), Int32(h), &script, &length, &error, error.count) }
        guard made != 0, let script else { return nil }
        defer { free(script) }
        let text = String(decoding: UnsafeRawBufferPointer(start: script, count: length), as: UTF8.self)
        return (text, Double(w), Double(h))
    }

    private static func text(_ error: [CChar]) -> String {
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
