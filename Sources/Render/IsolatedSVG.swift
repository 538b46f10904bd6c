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
    /// (`FontLibrary.configurationFile`: the run's fonts only). `size`, when the caller knows it
    /// from an earlier opening of the same file, spares a worker the question.
    package init(_ bytes: [UInt8], isolation: Isolation, cancellation: Cancellation?, fonts: String,
                 size: (width: Double, height: Double)? = nil) throws {
        guard isolation.isolates else {
            let picture = try SVGPicture(bytes)
            (backing, width, height) = (.local(picture), picture.width, picture.height)
            return
        }
        backing = .isolated(bytes: bytes, isolation: isolation, cancellation: cancellation, fonts: fonts)
        if let size {
            (width, height) = size
        } else {
            let fields = Fields([("svg", bytes)])
            let answer = try isolation.perform(.init(task: SVGTasks.size, fields: fields, memoryBytes: SVGTasks.parseBytes(bytes.count)),
                                               cancellation: cancellation) { try SVGTasks.size($0) }
            let sized = Fields(decoding: answer) ?? Fields()
            (width, height) = (try sized.number("width"), try sized.number("height"))
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { throw RenderError.image("SVG: no width, height or viewBox to size it by") }
    }

    /// The picture drawn at the window's full size, only the window made (see
    /// `SVGPicture.raster`), checked against `maxPixels` first.
    package func raster(_ window: RasterWindow, maxPixels: Int) throws -> RasterImage {
        switch backing {
        case let .local(picture): return try picture.raster(window, maxPixels: maxPixels)
        case let .isolated(bytes, isolation, cancellation, fonts):
            let (width, height) = (window.width, window.height)
            guard width > 0, height > 0, Checked.pixels(width, height, within: maxPixels) else {
                throw RenderError.surfaceTooLarge("the SVG picture", width: width, height: height, limit: maxPixels)
            }
            var fields = Fields([("svg", bytes)])
            fields.set(SVGTasks.fontsField, fonts)
            for (name, value) in [("width", width), ("height", height), ("left", window.x), ("top", window.y),
                                  ("full-width", window.fullWidth), ("full-height", window.fullHeight), ("max-pixels", maxPixels)] {
                fields.set(name, String(value))
            }
            let memory = SVGTasks.parseBytes(bytes.count) + 2 * width * height * 4
            let pixels = try isolation.perform(.init(task: SVGTasks.raster, fields: fields, memoryBytes: memory, answerBytes: width * height * 4),
                                               cancellation: cancellation) {
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

    /// The picture's straight RGBA pixels in the window `left`, `top`, `width` x `height` of
    /// the picture drawn at `full-width` x `full-height`.
    package static func raster(_ fields: Fields) throws -> [UInt8] {
        func side(_ name: String, from: Int = 1) throws -> Int { try Checked.int(try fields.number(name), name, in: from...Checked.maxSide) }
        let window = RasterWindow(fullWidth: try side("full-width"), fullHeight: try side("full-height"), x: try side("left", from: 0),
                                  y: try side("top", from: 0), width: try side("width"), height: try side("height"))
        let limit = try Checked.int(try fields.number("max-pixels"), "max-pixels", in: PixelLimit.range)
        return try picture(fields).raster(window, maxPixels: limit).pixels
    }

    /// `script`, `width` and `height`, or no fields when the drawing cannot be replayed.
    package static func script(_ fields: Fields) throws -> [UInt8] {
        guard let drawn = try picture(fields).script() else { return [] }
        var out = Fields()
        out.set("script", drawn.text); out.set("width", "\(drawn.width)"); out.set("height", "\(drawn.height)")
        return out.encoded
    }
}
