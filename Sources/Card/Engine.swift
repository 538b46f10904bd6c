import Motion
import Render
import Support

/// A card rendered: the bytes, and what the front ends say about it.
package struct CardOutput: Sendable {
    /// The encoded file (empty when the job only lays out).
    package var bytes: [UInt8]
    /// The card as built: its scene and its layout report.
    package var card: BuiltCard
    /// Nothing shows through the card (a JPEG of it needs no flattening).
    package var opaque: Bool
    /// The description written into the image (nil: none, `--no-alt`).
    package var description: String?
}

/// The one engine behind `hlrender card`, `render` and `steps`, every batch row, the service
/// and HLRenderKit: a card spec (parsed JSON, variables not yet filled) all the way to encoded
/// bytes, in a world given once (fonts, files, limits, policy) and a job given per call
/// (format, encoders, cancellation, memory). Safe to call from many threads at once; what it
/// keeps between calls (decoded pictures, SVG sizes, drawn backgrounds) is bounded by the world.
package final class Engine: Sendable {
    /// What the engine was made with.
    package let world: World
    /// Draws the cards, sharing what repeats between them (a template's drawn background).
    package let renderer: Renderer
    /// Decoded pictures by path, and SVG pictures' rasters by path and window, shared by every
    /// card (a batch decodes its template's photo once).
    let images: ImageCache
    /// SVG pictures' own sizes by file, so a later card need not ask a worker again.
    let svgSizes = SVGSizes()

    /// An engine over `world`.
    package init(world: World) {
        self.world = world
        renderer = Renderer(fonts: world.fonts, backgroundCacheBytes: world.backgroundCacheBytes)
        images = ImageCache(byteLimit: world.pictureCacheBytes)
    }

    /// The spec of `json` with `variables` filled, its paths relative to `folder`, parsed under
    /// the world's link policy.
    package func parse(_ json: JSONValue, variables: [String: String], folder: String) throws -> CardSpec {
        try parse(filled: try Variables.substitute(json, variables), folder: folder)
    }

    /// The same for a spec whose variables are already filled: it is not read for `{{...}}`
    /// again (a value holding `{{x}}` stays that text).
    package func parse(filled json: JSONValue, folder: String) throws -> CardSpec {
        try CardSpec.parse(json, folder: folder, linkSchemes: world.linkSchemes)
    }

    /// Renders the spec of `json` (variables not yet filled).
    package func render(_ json: JSONValue, variables: [String: String], folder: String, job: Job) throws -> CardOutput {
        try render(try parse(json, variables: variables, folder: folder), job: job)
    }

    /// Renders a parsed spec: built (typeset, fitted, decoded), then drawn and encoded unless
    /// the job only lays out.
    package func render(_ spec: CardSpec, job: Job) throws -> CardOutput {
        let card = try CardBuilder.build(spec, engine: self, job: job, vectorOutput: job.format.isVector)
        var options = options(for: card, job: job)
        options.format = job.format
        options.oneShot = job.oneShot
        options.pdf = spec.pdf.under(job.pdf)
        if job.format == .pdf {
            if let unmet = options.pdf.unmetRequirement() { throw CardError("pdf.pdf-standard", unmet) }
            if options.pdf.standards.contains(.ua1), let path = spec.imageWithoutAlt {
                throw CardError(join(path, "alt"), "PDF/UA-1 needs alternative text for every picture (a picture that is decoration has no place in an accessible card)")
            }
            if options.pdf.created == nil, let clock = world.clock { options.pdf.created = clock() }
        }
        // The document's language, unless the caller named one: the first text block's.
        if options.pdf.language == nil {
            options.pdf.language = spec.blocks.lazy.compactMap { block -> String? in
                if case let .text(settings, _) = block.kind, !settings.lang.isEmpty { return settings.lang }
                return nil
            }.first
        }
        let bytes = job.draw ? try renderer.render(card.scene, options: options) : []
        return CardOutput(bytes: bytes, card: card, opaque: card.scene.background.isOpaque, description: options.encoding.description)
    }

    /// An animated card: its effects drawn frame by frame into `container` (the job's encoder
    /// rows, cancellation and memory apply; its still format does not). `adjust` changes the
    /// spec's timing (the caller's flags win over its keys). The last frame is the still card
    /// `render` draws.
    package func animate(_ spec: CardSpec, as container: AnimationFormat, job: Job, tools: AnimationTools = AnimationTools(),
                         adjust: (inout AnimationTiming) throws -> Void = { _ in }) throws -> (output: CardOutput, report: AnimationReport) {
        var timing = spec.timing
        try adjust(&timing)
        let card = try CardBuilder.build(spec, engine: self, job: job)
        let options = options(for: card, job: job)
        let (bytes, report) = try renderer.animate(card.scene, timing: timing, as: container, options: options, tools: tools)
        return (CardOutput(bytes: bytes, card: card, opaque: card.scene.background.isOpaque, description: options.encoding.description), report)
    }

    /// What a still card and an animation draw with alike: the card's scale, the world's pixel
    /// limit, the job's encoder (its description the card's alt text unless one is given, or
    /// none), cancellation and memory.
    private func options(for card: BuiltCard, job: Job) -> RenderOptions {
        var options = RenderOptions()
        options.scale = card.scale
        options.maxPixels = world.maxPixels
        options.encoding = job.encoding
        // The card's own text is bounded as it is gathered; a given alt here.
        options.encoding.description = job.encoding.noAlt ? nil : job.encoding.alt.map(ImageDescription.bounded) ?? card.alt
        options.cancellation = job.cancellation
        options.memory = job.memory
        return options
    }
}
