import Support

/// An SVG picture decoded where the caller's `Isolation` says: in this process (an
/// `SVGPicture` kept open) or in a worker, one call per question (its size, a raster, its
/// drawing as a script), each answered by `SVGTasks` with the same code.
package struct IsolatedSVG: Sendable {
    private enum Backing: Sendable {
        case local(SVGPicture)
        case isolated(bytes: [UInt8], isolation: Isolation, cancellation: Cancellation?, fonts: String)
    }

    private let backing: Backing
    /// The document's own size in pixels (its width and height, else its viewBox).
    package let width: Double
    package let height: Double

    /// Checks and opens `bytes`; throws `RenderError` (or `IsolationError` from a worker).
    /// `fonts` is the Fontconfig file a worker draws the picture's text with
    /// (`FontLibrary.configurationFile`: the run's fonts only).
    package init(_ bytes: [UInt8], isolation: Isolation, cancellation: Cancellation?, fonts: String) throws {
        guard isolation.isolates else {
            let picture = try SVGPicture(bytes)
            (backing, width, height) = (.local(picture), picture.width, picture.height)
            return
        }
        backing = .isolated(bytes: bytes, isolation: isolation, cancellation: cancellation, fonts: fonts)
        var fields = Fields([("svg", bytes)])
        let answer = try isolation.perform(.init(task: SVGTasks.size, fields: fields, memoryBytes: SVGTasks.parseBytes(bytes.count)),
                                           cancellation: cancellation) { try SVGTasks.size($0) }
        fields = Fields(decoding: answer) ?? Fields()
        (width, height) = (try fields.number("width"), try fields.number("height"))
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { throw RenderError.image("SVG: no width, height or viewBox to size it by") }
    }

    /// The picture drawn into `width` x `height` pixels, checked against `maxPixels` first.
    package func raster(width: Int, height: Int, maxPixels: Int) throws -> RasterImage {
        switch backing {
        case let .local(picture): return try picture.raster(width: width, height: height, maxPixels: maxPixels)
        case let .isolated(bytes, isolation, cancellation, fonts):
            guard width > 0, height > 0, Checked.pixels(width, height, within: maxPixels) else {
                throw RenderError.surfaceTooLarge("the SVG picture", width: width, height: height, limit: maxPixels)
            }
            var fields = Fields([("svg", bytes)])
            fields.set(SVGTasks.fontsField, fonts)
            fields.set("width", String(width)); fields.set("height", String(height)); fields.set("max-pixels", String(maxPixels))
            let memory = SVGTasks.parseBytes(bytes.count) + 2 * width * height * 4
            let pixels = try isolation.perform(.init(task: SVGTasks.raster, fields: fields, memoryBytes: memory), cancellation: cancellation) {
                try SVGTasks.raster($0)
            }
            do { return try RasterImage(width: width, height: height, pixels: pixels) } catch { throw RenderError.image("SVG: \(error)") }
        }
    }

    /// The picture as vectors, or nil when its drawing cannot be replayed (see `SVGPicture`).
    package func vector() -> VectorPicture? {
        switch backing {
        case let .local(picture): return picture.vector()
        case let .isolated(bytes, isolation, cancellation, fonts):
            let call = Isolation.Call(task: SVGTasks.script, fields: Fields([("svg", bytes), (SVGTasks.fontsField, Array(fonts.utf8))]), memoryBytes: SVGTasks.parseBytes(bytes.count))
            guard let answer = try? isolation.perform(call, cancellation: cancellation, here: { try SVGTasks.script($0) }),
                  let fields = Fields(decoding: answer), let text = fields.text("script"),
                  let width = try? fields.number("width"), let height = try? fields.number("height") else { return nil }
            return VectorPicture(script: text, width: width, height: height)?.checked()
        }
    }
}

/// The SVG questions a worker answers, by name: fields in, fields (or pixels) out. The same
/// functions answer in this process.
package enum SVGTasks {
    package static let size = "svg-size", raster = "svg-raster", script = "svg-script"
    /// The field holding the Fontconfig file a worker sets before librsvg draws text.
    package static let fontsField = "fontconfig"

    /// Memory a worker may need to parse and hold an SVG of `count` bytes (librsvg's tree is a
    /// few hundred bytes a node; the 4 MB input limit keeps this under 300 MB).
    package static func parseBytes(_ count: Int) -> Int { (32 << 20) + count * 64 }

    static func picture(_ fields: Fields) throws -> SVGPicture {
        guard let bytes = fields["svg"] else { throw IsolationError(.refused, "the call has no SVG") }
        return try SVGPicture(bytes)
    }

    /// `width` and `height` of the picture.
    package static func size(_ fields: Fields) throws -> [UInt8] {
        let picture = try picture(fields)
        var out = Fields()
        out.set("width", "\(picture.width)"); out.set("height", "\(picture.height)")
        return out.encoded
    }

    /// The picture's straight RGBA pixels at `width` x `height`.
    package static func raster(_ fields: Fields) throws -> [UInt8] {
        let (w, h, limit) = (try fields.number("width"), try fields.number("height"), try fields.number("max-pixels"))
        let size = try (Checked.int(w, "width", in: 1...Checked.maxSide), Checked.int(h, "height", in: 1...Checked.maxSide),
                        Checked.int(limit, "max-pixels", in: PixelLimit.range))
        return try picture(fields).raster(width: size.0, height: size.1, maxPixels: size.2).pixels
    }

    /// `script`, `width` and `height`, or no fields when the drawing cannot be replayed.
    package static func script(_ fields: Fields) throws -> [UInt8] {
        guard let drawn = try picture(fields).script() else { return [] }
        var out = Fields()
        out.set("script", drawn.text); out.set("width", "\(drawn.width)"); out.set("height", "\(drawn.height)")
        return out.encoded
    }
}
