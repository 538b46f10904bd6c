import FoundationEssentials
import Synchronization
import Render
import Steps
import Motion
import Typeset
import Support

/// A card ready to draw, and its layout report.
package struct BuiltCard: Sendable {
    package var scene: Scene
    package var scale: Double
    /// The layout report (the layout-dump contract); only the canvas's size, scale and alt
    /// when the job did not ask for it (`Job.layoutReport`).
    package var dump: JSONValue
    /// The card's description: what a reader sees, one part per text or picture in reading
    /// order (see `Scene.visibleParts`), at most `ImageDescription.maxCharacters`.
    package var alt: String
    /// Combining marks dropped because a cluster carried too many (see `MarkLimit`).
    package var droppedMarks: Int
}

extension BuiltCard {
    /// Whether some text lies outside the canvas (a fixed size the text does not fit): its
    /// lines are cut off there. Half a pixel of slack for rounding.
    package var cutsOffText: Bool {
        scene.items.contains { item in
            guard case let .text(text) = item else { return false }
            return text.layout.lines.contains { line in
                !line.isBlank && (text.y + line.top < -0.5 || text.y + line.bottom > scene.height + 0.5
                    || text.x + line.x < -0.5 || text.x + line.x + line.width > scene.width + 0.5)
            }
        }
    }
}

/// A block measured: its size, and how to place it (items and dump at a top-left corner, on
/// a canvas of the given size: known only once every block is measured).
struct MeasuredBlock {
    var width: Double
    var height: Double
    var droppedMarks = 0
    var place: (_ x: Double, _ y: Double, _ canvas: CanvasSize) throws -> PlacedBlock
}

/// A block's scene items at their place, its dump entries, and each item's effects (an
/// animated block's; a stack's child keeps its own when it has some).
struct PlacedBlock {
    var items: [SceneItem]
    var dump: [JSONValue]
    var motion: [[EffectSpec]]

    init(_ items: [SceneItem], _ dump: [JSONValue], motion: [[EffectSpec]]? = nil) {
        (self.items, self.dump) = (items, dump)
        self.motion = motion ?? Array(repeating: [], count: items.count)
    }

    /// `effects` for every item that has none of its own; a block of one item says in its
    /// dump entry when each effect runs (`"animation": [{"effect", "start", "end", ...}]`).
    func animated(_ effects: [EffectSpec]) -> PlacedBlock {
        guard !effects.isEmpty else { return self }
        var dump = dump
        if items.count == 1, dump.count == 1, case let .object(members) = dump[0] {
            dump[0] = .object(members + [("animation", LayoutJSON.timing(items[0].schedule(effects)))])
        }
        return PlacedBlock(items, dump, motion: motion.map { $0.isEmpty ? effects : $0 })
    }
}

/// The canvas's size in card pixels.
struct CanvasSize {
    var width: Double
    var height: Double
}

/// Card spec to scene: every block measured (typeset, fitted, decoded), placed by its anchor,
/// in order. The one place where card geometry is decided.
package struct CardBuilder {
    let spec: CardSpec
    let engine: Engine
    let job: Job
    let background: Background
    /// A colour standing for the background, for text colours chosen by contrast.
    let groundColor: Color
    /// Device pixels per card pixel an SVG picture is rasterised at beyond the card's scale:
    /// 1 for images (exactly the pixels drawn), more for PDF and SVG outputs, which zoom.
    var pictureOversample = 1.0
    /// SVG files this card has opened.
    let opened = OpenedSVGs()

    package static func build(_ spec: CardSpec, engine: Engine, job: Job, vectorOutput: Bool = false) throws -> BuiltCard {
        let (background, ground) = try resolveBackground(spec, engine: engine, job: job)
        var builder = CardBuilder(spec: spec, engine: engine, job: job, background: background, groundColor: ground)
        if vectorOutput { builder.pictureOversample = 4 }
        let pad = spec.padding
        // A fixed side leaves its inner room to the blocks; a fitted side gives them all they ask.
        let innerWidth = spec.width.map { $0 - 2 * pad }, innerHeight = spec.height.map { $0 - 2 * pad }
        guard spec.blocks.isEmpty || ((innerWidth ?? 1) > 0 && (innerHeight ?? 1) > 0) else {
            throw CardError("padding", "leaves no room inside a \(describe(spec.width))x\(describe(spec.height)) canvas")
        }
        let measured = try spec.blocks.map {
            try job.cancellation.check()
            return try builder.measure($0, availableWidth: innerWidth)
        }
        let inner = (width: innerWidth ?? measured.map(\.width).max() ?? 0,
                     height: innerHeight ?? measured.map(\.height).max() ?? 0)
        let size = (width: spec.width ?? inner.width + 2 * pad, height: spec.height ?? inner.height + 2 * pad)
        var items: [SceneItem] = []
        var dumps: [JSONValue] = []
        var motion: [Int: [EffectSpec]] = [:]
        var dropped = 0
        for (block, measured) in zip(spec.blocks, measured) {
            let (fx, fy) = block.anchor.fractions
            let x = pad + fx * (inner.width - measured.width) + block.offset.0
            let y = pad + fy * (inner.height - measured.height) + block.offset.1
            let placed = try measured.place(x, y, CanvasSize(width: size.width, height: size.height))
            for (offset, effects) in placed.motion.enumerated() where !effects.isEmpty { motion[items.count + offset] = effects }
            items += placed.items
            dumps += placed.dump
            dropped += measured.droppedMarks
        }
        var scene = Scene(width: size.width, height: size.height, background: background, items: items)
        scene.motion = motion
        let s = spec.scale
        let alt = ImageDescription.bounded(scene.visibleParts.joined(separator: "\n"))
        let dump = JSONValue.object([
            ("width", .number((size.width * s).rounded(.up))), ("height", .number((size.height * s).rounded(.up))),
            ("scale", .number(s)), ("alt", .string(alt)),
        ] + (job.layoutReport ? [("blocks", .array(dumps))] : []))
        return BuiltCard(scene: scene, scale: s, dump: dump, alt: alt, droppedMarks: dropped)
    }

    private static func describe(_ side: Double?) -> String { side.map { "\(Int($0))" } ?? "auto" }

    /// A path from the spec: absolute as is, relative against the spec's folder.
    func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : spec.folder + "/" + path
    }

    func readText(_ path: String, at jsonPath: String) throws -> String {
        let bytes = try read(path, at: jsonPath)
        guard var text = String(validating: bytes, as: UTF8.self) else { throw CardError(jsonPath, "'\(path)' is not valid UTF-8") }
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    func read(_ path: String, at jsonPath: String) throws -> [UInt8] {
        job.readLog?.add(resolve(path))
        do {
            return try engine.world.readFile(resolve(path))
        } catch let error as CardError {
            throw error
        } catch {
            throw CardError(jsonPath, "\(error)")
        }
    }

    func measure(_ block: BlockSpec, availableWidth: Double?) throws -> MeasuredBlock {
        var measured = try measureKind(block, availableWidth: availableWidth)
        if !block.animation.isEmpty {
            let place = measured.place
            measured.place = { try place($0, $1, $2).animated(block.animation) }
        }
        return measured
    }

    private func measureKind(_ block: BlockSpec, availableWidth: Double?) throws -> MeasuredBlock {
        do {
            switch block.kind {
            case let .text(settings, fit):
                return try measureText(settings, fit: fit, availableWidth: availableWidth, path: block.path)
            case let .steps(settings, fit):
                return try measureSteps(settings, fit: fit, availableWidth: availableWidth, path: block.path)
            case let .image(src, width, height, radius, alt):
                return try measureImage(src: src, width: width, height: height, radius: radius, alt: alt, path: block.path)
            case let .stack(gap, align, blocks):
                return try measureStack(blocks, gap: gap, align: align, availableWidth: availableWidth, path: block.path)
            }
        } catch let error as CardError {
            throw error
        } catch let error as Cancellation.Cancelled {
            throw error
        } catch let error as MemoryBudget.Exceeded {
            throw error  // the service's 503 (or 413), not a fault of the spec
        } catch let error as OptionError {
            throw CardError(block.path, error.message)
        } catch {
            throw CardError(block.path, "\(error)")
        }
    }

    func measureStack(_ blocks: [BlockSpec], gap: Double, align: HorizontalAlign, availableWidth: Double?,
                      path: String) throws -> MeasuredBlock {
        let children = try blocks.map { try measure($0, availableWidth: availableWidth) }
        let width = children.map(\.width).max() ?? 0
        let height = children.map(\.height).reduce(0, +) + gap * Double(max(0, children.count - 1))
        return MeasuredBlock(width: width, height: height, droppedMarks: children.reduce(0) { $0 + $1.droppedMarks }) { x, y, canvas in
            var items: [SceneItem] = []
            var dumps: [JSONValue] = []
            var motion: [[EffectSpec]] = []
            var top = y
            for child in children {
                let shift = align == .left ? 0 : align == .center ? (width - child.width) / 2 : width - child.width
                let placed = try child.place(x + shift, top, canvas)
                items += placed.items
                dumps += placed.dump
                motion += placed.motion
                top += child.height + gap
            }
            return PlacedBlock(items, blockDump("stack", x, y, width, height) { [("blocks", .array(dumps))] }, motion: motion)
        }
    }

    /// The dump entry of a block, in output pixels, with the members `extra` makes; none when
    /// the job did not ask for the layout report (nothing of it is computed then).
    func blockDump(_ type: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                   _ extra: () throws -> [(String, JSONValue)]) rethrows -> [JSONValue] {
        guard job.layoutReport else { return [] }
        let s = spec.scale
        return [.object([("type", .string(type)), ("x", px(x, s)), ("y", px(y, s)), ("width", px(w, s)), ("height", px(h, s))] + (try extra()))]
    }

    static func resolveBackground(_ spec: CardSpec, engine: Engine, job: Job) throws -> (Background, Color) {
        switch spec.background {
        case let .color(color):
            return (.color(color), color)
        case let .gradient(angle, stops):
            let n = Double(stops.count)
            let mean = Color(red: stops.map(\.color.red).reduce(0, +) / n, green: stops.map(\.color.green).reduce(0, +) / n,
                             blue: stops.map(\.color.blue).reduce(0, +) / n, alpha: stops.map(\.color.alpha).reduce(0, +) / n)
            return (.linearGradient(angle: angle, stops: stops), mean)
        case let .image(path, fit, blur, dim):
            let builder = CardBuilder(spec: spec, engine: engine, job: job, background: .color(.white), groundColor: .white)
            let image: RasterImage
            do {
                image = try builder.picture(path, at: "background.image")
            } catch let error as RenderError {
                throw CardError("background.image", "'\(path)': \(error)")
            }
            // The picture's mean colour, dimmed: what text over it is read against.
            var sums = (0.0, 0.0, 0.0)
            let stride = max(1, image.width * image.height / 4096)
            var count = 0.0
            for p in Swift.stride(from: 0, to: image.width * image.height, by: stride) {
                sums.0 += Double(image.pixels[p * 4]); sums.1 += Double(image.pixels[p * 4 + 1]); sums.2 += Double(image.pixels[p * 4 + 2])
                count += 1
            }
            let keep = (1 - dim.value) / 255 / count
            let mean = Color(red: sums.0 * keep, green: sums.1 * keep, blue: sums.2 * keep)
            return (.image(image, fit: fit, blur: blur, dim: dim, color: .white), mean)
        }
    }
}

/// A length in output pixels, to 1/1000.
func px(_ value: Double, _ scale: Double) -> JSONValue { LayoutJSON.px(value, scale) }
