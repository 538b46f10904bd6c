import Synchronization
import Render
import Support

extension CardBuilder {
    /// A picture file decoded, through the engine's cache. The cache key is the file's
    /// identity too, so a picture replaced on disk is decoded afresh.
    func picture(_ path: String, at jsonPath: String) throws -> RasterImage {
        let key = fileKey(path)
        if let key, let image = engine.images[key] { return image }
        let image = try RasterImage(decoding: try read(path, at: jsonPath), maxPixels: engine.world.maxPixels)
        if let key { engine.images[key] = image }
        return image
    }

    /// The file's path and identity (device, inode, size, time): the key of what was made
    /// from it; nil when it cannot be told.
    func fileKey(_ path: String) -> String? {
        let full = resolve(path)
        job.readLog?.add(full)  // a cached picture is still this card's input
        return engine.world.fileIdentity(full).map { full + "\u{0}" + $0 }
    }

    /// An image block: a raster picture decoded at measuring; an SVG picture opened (once per
    /// file a card) and sized at measuring, rasterised when placed: only the part the canvas
    /// shows, once for every block that shows the same part, its memory reserved first.
    func measureImage(src: String, width: Double?, height: Double?, radius: Double, alt: String?, path: String) throws -> MeasuredBlock {
        let srcPath = join(path, "src")
        func refused(_ error: Error) -> CardError {
            switch error {
            case let error as CardError: return error
            case let error as ValueError: return CardError(srcPath, "'\(src)': the picture's \(error)")
            default: return CardError(srcPath, "'\(src)': \(error)")
            }
        }
        var raster: RasterImage?
        var svg: IsolatedSVG?
        var key: String?
        do {
            if src.lowercased().hasSuffix(".svg") {
                (svg, key) = try openSVG(src, at: srcPath)
            } else {
                raster = try picture(src, at: srcPath)
            }
        } catch let error as RenderError {
            throw refused(error)
        } catch let error as IsolationError {
            throw refused(error)
        }
        let natural = svg.map { ($0.width, $0.height) } ?? (Double(raster!.width), Double(raster!.height))
        var w = natural.0, h = natural.1
        switch (width, height) {
        case let (w0?, h0?):  // inside the box, aspect kept
            let factor = min(w0 / natural.0, h0 / natural.1)
            (w, h) = (natural.0 * factor, natural.1 * factor)
        case let (w0?, nil): (w, h) = (w0, natural.1 * w0 / natural.0)
        case let (nil, h0?): (w, h) = (natural.0 * h0 / natural.1, h0)
        case (nil, nil): break
        }
        // The picture's own size and aspect come from the file: 1e30 wide, or 1e-300 tall, is
        // refused here, before any of it sizes a surface.
        do throws(ValueError) {
            (w, h) = (try Checked.length(w, "its width"), try Checked.length(h, "its height"))
            guard w > 0, h > 0 else { throw ValueError("its size", "\(Checked.describe(w))x\(Checked.describe(h))", expected: "above 0 on both sides") }
        } catch {
            throw CardError(srcPath, "'\(src)': at the size this block draws it, \(error.name) \(error.requirement)")
        }
        // PDF and SVG outputs keep the picture as paths where the replay knows its drawing.
        let vector = pictureOversample > 1 ? svg.flatMap { opened.vector(of: resolve(src), $0) } : nil
        // Drawn at the size it takes on the output: the card's scale, more for vector outputs
        // that could not keep the paths.
        let device = spec.scale * (vector == nil ? pictureOversample : 1)
        let full: (width: Int, height: Int)
        do {
            full = (try Checked.side(w * device, "width"), try Checked.side(h * device, "height"))
        } catch {
            throw refused(error)
        }
        return MeasuredBlock(width: w, height: h) { x, y, canvas in
            let dump = blockDump("image", x, y, w, h) { alt.map { [("alt", .string($0))] } ?? [] }
            guard let svg else {
                return PlacedBlock([.image(raster!, x: x, y: y, width: w, height: h, radius: radius, alt: alt)], dump)
            }
            let onCanvas = (Checked.clamped(canvas.width * device, .up, in: 0...Checked.maxSide),
                            Checked.clamped(canvas.height * device, .up, in: 0...Checked.maxSide))
            // A picture wholly off the canvas is not drawn (nor read: it is not seen).
            guard let window = RasterWindow.visible(full: full, origin: (x * device, y * device), canvas: onCanvas) else { return PlacedBlock([], dump) }
            let image: RasterImage
            do {
                image = try rasterSVG(svg, window: window, key: key.map { $0 + "\u{0}\(window)" })
            } catch let error as Cancellation.Cancelled {
                throw error
            } catch let error as MemoryBudget.Exceeded {
                throw error
            } catch {
                throw refused(error)
            }
            return PlacedBlock([.image(image, x: x, y: y, width: w, height: h, radius: radius, alt: alt, vector: vector, window: window)], dump)
        }
    }

    /// The SVG file opened once for every block of this card that names it, and its cache key
    /// (see `fileKey`); its size from an earlier card when the file is unchanged.
    private func openSVG(_ src: String, at jsonPath: String) throws -> (IsolatedSVG, String?) {
        let full = resolve(src)
        if let open = opened[full] { return open }
        let key = fileKey(src)
        let svg = try IsolatedSVG(try read(src, at: jsonPath), isolation: engine.world.isolation, cancellation: job.cancellation,
                                  fonts: engine.world.library.configurationFile, size: key.flatMap { engine.svgSizes[$0] })
        if let key { engine.svgSizes[key] = (svg.width, svg.height) }
        opened[full] = (svg, key)
        return (svg, key)
    }

    /// The window of the picture, from the engine's cache when a card has made it before;
    /// else made, its pixels reserved from the render's budget first (held until drawn).
    private func rasterSVG(_ svg: IsolatedSVG, window: RasterWindow, key: String?) throws -> RasterImage {
        if let key, let image = engine.images[key] { return image }
        if Checked.pixels(window.width, window.height, within: engine.world.maxPixels) {
            try job.memory?.reserve(window.width * window.height * 4)
        }
        let image = try svg.raster(window, maxPixels: engine.world.maxPixels)
        if let key { engine.images[key] = image }
        return image
    }
}

/// SVG files opened while one card is built, by path, with their cache keys and their
/// drawings as vectors once asked (a card naming one file in thirty blocks opens it, and asks a
/// worker for its paths, once).
final class OpenedSVGs: Sendable {
    private let state = Mutex<[String: (IsolatedSVG, String?)]>([:])
    private let vectors = Mutex<[String: VectorPicture?]>([:])
    subscript(path: String) -> (IsolatedSVG, String?)? {
        get { state.withLock { $0[path] } }
        set { state.withLock { $0[path] = newValue } }
    }

    /// The picture at `path` as vectors (nil when its drawing cannot be replayed), made once.
    func vector(of path: String, _ svg: IsolatedSVG) -> VectorPicture? {
        if let known = vectors.withLock({ $0[path] }) { return known }
        let made = svg.vector()
        vectors.withLock { $0[path] = .some(made) }
        return made
    }
}

/// SVG pictures' own sizes by file key (at most 4,096, the oldest go first).
final class SVGSizes: Sendable {
    private let state = Mutex(BoundedCache<String, (width: Double, height: Double)>(limit: 4096))
    subscript(key: String) -> (width: Double, height: Double)? {
        get { state.withLock { $0[key] } }
        set { if let newValue { state.withLock { _ = $0.insert(newValue, for: key) } } }
    }
}

/// Decoded pictures by path, at most `byteLimit` bytes of pixels (the oldest go first; a
/// picture larger than the whole limit is not kept).
final class ImageCache: Sendable {
    private let state = Mutex<[(String, RasterImage)]>([])
    let byteLimit: Int

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    subscript(path: String) -> RasterImage? {
        get { state.withLock { list in list.first { $0.0 == path }?.1 } }
        set {
            guard let image = newValue else { return }
            state.withLock { list in
                list.append((path, image))
                var total = list.reduce(0) { $0 + $1.1.pixels.count }
                while total > byteLimit, !list.isEmpty {
                    total -= list.removeFirst().1.pixels.count
                }
            }
        }
    }
}
