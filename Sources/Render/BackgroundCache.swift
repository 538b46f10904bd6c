import CCairo
import Synchronization

/// Drawn backgrounds kept for reuse: a batch of cards from one template repeats the same
/// gradient or blurred photo on every card, and rasterising it (or blurring it) is most of the
/// drawing. Raster canvases copy the cached pixels instead. A few entries, whole canvases.
final class BackgroundCache: Sendable {
    private struct Key: Hashable {
        var description: String
        var width: Int
        var height: Int
    }

    private let entries = Mutex<[(Key, [UInt8])]>([])
    private let limit = 4
    let byteLimit: Int

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    /// The pixels of `background` on a raster canvas of `pixelWidth` x `pixelHeight` (32-bit
    /// words, Cairo's stride), from the cache when it holds them; nil for backgrounds not worth
    /// caching.
    func pixels(_ background: Background, width: Double, height: Double, scale: Double,
                       pixelWidth: Int, pixelHeight: Int) throws -> [UInt8]? {
        guard let description = BackgroundCache.describe(background) else { return nil }
        let key = Key(description: description + "@\(scale)", width: pixelWidth, height: pixelHeight)
        if let cached = entries.withLock({ list in list.first { $0.0 == key }?.1 }) { return cached }
        let layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))!
        defer { cairo_surface_destroy(layer) }
        try Cairo.check(surface: layer, "creating the background surface")
        let cr = cairo_create(layer)!
        cairo_scale(cr, scale, scale)
        try BackgroundPainter.paint(cr, background, width: width, height: height, scale: scale)
        cairo_destroy(cr)
        cairo_surface_flush(layer)
        let stride = Int(cairo_image_surface_get_stride(layer))
        let pixels = Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(layer), count: stride * pixelHeight))
        guard pixels.count <= byteLimit else { return pixels }
        entries.withLock { list in
            var total = list.reduce(pixels.count) { $0 + $1.1.count }
            while !list.isEmpty, list.count >= limit || total > byteLimit { total -= list.removeFirst().1.count }
            list.append((key, pixels))
        }
        return pixels
    }

    /// A key naming everything that decides the pixels, or nil for a plain colour (as fast to
    /// fill as to copy).
    private static func describe(_ background: Background) -> String? {
        switch background {
        case .color: return nil
        case let .linearGradient(angle, stops):
            return "gradient \(angle) " + stops.map { "\($0.color) \($0.position.map { String($0) } ?? "-")" }.joined(separator: ",")
        case let .image(image, fit, blur, dim, color):
            return "image \(image.identity) \(fit.rawValue) \(blur) \(dim) \(color)"
        }
    }
}
