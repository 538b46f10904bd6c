import CSVGRaster
import Glibc
import Support

/// An SVG picture (a logo, an icon) from untrusted bytes, rasterised by librsvg at the size it
/// is drawn. The one guard for SVG input (`check`), before librsvg reads a byte: at most
/// `maxBytes`, no DOCTYPE (entities, the "billion laughs", live there), no reference outside
/// the document, elements nested at most `maxDepth` deep, `use` expansion bounded; librsvg is
/// given no base file either, and the raster is checked against the pixel limit before it is
/// made.
package final class SVGPicture: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The document's own size in pixels (its width and height, else its viewBox).
    package let width: Double
    package let height: Double
    static let maxBytes = 4 << 20
    static let maxDepth = 64
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

    /// The refusals made before parsing, each a one-line reason: the size, a DOCTYPE, a
    /// reference to anything outside the document (href, CSS @import, XInclude), elements
    /// nested too deep, and `use` references that loop or multiply past `maxInstances` (ten
    /// levels of ten uses each are 10^10 shapes: librsvg gives up only after seconds).
    package static func check(_ bytes: [UInt8]) throws {
        let fail = { (why: String) in RenderError.image("SVG: \(why)") }
        guard bytes.count <= maxBytes else { throw fail("\(bytes.count) bytes, over the \(maxBytes >> 20) MB an SVG picture may have") }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.uppercased().contains("<!DOCTYPE") || text.contains("<!ENTITY") {
            throw fail("a DOCTYPE or entity declaration is not accepted in pictures")
        }
        if text.contains("@import") || text.contains("XInclude") || text.contains(":include") {
            throw fail("it refers to another file (@import or XInclude); pictures must be self-contained")
        }
        var depth = 0
        // Ids of the open elements, and each id's `use` targets (a use counts for every
        // element around it).
        var open: [String?] = []
        var uses: [String: [String]] = [:]
        var topUses: [String] = []
        var i = text.startIndex
        while let start = text[i...].firstIndex(of: "<") {
            guard let end = text[start...].firstIndex(of: ">") else { break }
            let tag = text[text.index(after: start)..<end]
            i = text.index(after: end)
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                depth -= 1
                if !open.isEmpty { open.removeLast() }
                continue
            }
            let attributes = Self.attributes(tag)
            for (name, value) in attributes where name == "href" || name.hasSuffix(":href") {
                guard value.hasPrefix("#") || value.hasPrefix("data:") else {
                    throw fail("it refers to '\(value.prefix(60))'; pictures must be self-contained (only #id and data: references)")
                }
                if tag.hasPrefix("use"), value.hasPrefix("#") {
                    let target = String(value.dropFirst())
                    let holders = open.compactMap { $0 }
                    if holders.isEmpty { topUses.append(target) }
                    for holder in holders { uses[holder, default: []].append(target) }
                }
            }
            guard !tag.hasSuffix("/") else { continue }
            depth += 1
            guard depth <= maxDepth else { throw fail("elements nested over \(maxDepth) deep") }
            open.append(attributes.first { $0.0 == "id" }?.1)
        }
        // Shapes each id stands for once its uses are expanded; a loop is refused.
        var instances: [String: Int] = [:], visiting = Set<String>()
        func count(_ id: String) throws -> Int {
            if let known = instances[id] { return known }
            guard visiting.insert(id).inserted else { throw fail("'use' elements refer to each other in a loop ('#\(id.prefix(40))')") }
            var total = 1
            for target in uses[id] ?? [] {
                total += try count(target)
                guard total <= maxInstances else { throw fail("its 'use' elements expand to over \(maxInstances) shapes") }
            }
            visiting.remove(id)
            instances[id] = total
            return total
        }
        var total = 0
        for id in Array(uses.keys) + topUses {
            total += try count(id)
            guard total <= maxInstances * 2 else { throw fail("its 'use' elements expand to over \(maxInstances) shapes") }
        }
    }

    static let maxInstances = 100_000

    /// A start tag's attributes (name, value), quotes either way; what is not one is skipped.
    static func attributes(_ tag: Substring) -> [(String, String)] {
        var out: [(String, String)] = []
        var rest = tag.drop { !$0.isWhitespace }
        while let equals = rest.firstIndex(of: "=") {
            let name = String(rest[..<equals]).trimmed
            var after = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = after.first, quote == "\"" || quote == "'" else { break }
            after = after.dropFirst()
            guard let close = after.firstIndex(of: quote) else { break }
            out.append((name.split(whereSeparator: \.isWhitespace).last.map(String.init) ?? name, String(after[..<close])))
            rest = after[after.index(after: close)...]
        }
        return out
    }

    /// The picture drawn into `width` x `height` pixels, straight RGBA; the size is checked
    /// against `maxPixels` first. librsvg handles are not for two threads at once: one at a time.
    package func raster(width: Int, height: Int, maxPixels: Int) throws -> RasterImage {
        guard width > 0, height > 0, Checked.pixels(width, height, within: maxPixels) else {
            throw RenderError.surfaceTooLarge("the SVG picture", width: width, height: height, limit: maxPixels)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var error = [CChar](repeating: 0, count: 512)
        let drawn = lock.withLock { hl_svg_render(handle, &pixels, Int32(width), Int32(height), &error, error.count) }
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
