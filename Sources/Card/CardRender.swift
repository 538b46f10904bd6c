import Motion
import Render
import Support

/// A card spec (parsed JSON, variables not yet filled) all the way to encoded bytes: what
/// `hlrender card`, each batch row and a server request do.
package enum CardRender {
    package struct Output: Sendable {
        package var bytes: [UInt8]
        package var card: BuiltCard
        /// Nothing shows through the card (a JPEG of it needs no flattening).
        package var opaque: Bool
        /// The description written into the image (nil: none, `--no-alt`).
        package var description: String?
    }

    package static func render(_ json: JSONValue, variables: [String: String], folder: String, resources: CardResources,
                              format: OutputFormat, encoding: EncodeOptions, pdf: PDFMetadata = PDFMetadata(),
                              render: Bool = true) throws -> Output {
        try self.render(filled: try Variables.substitute(json, variables), folder: folder, resources: resources, format: format,
                        encoding: encoding, pdf: pdf, render: render)
    }

    /// The same for a spec whose variables are already filled (a value is never read again for
    /// `{{...}}`).
    package static func render(filled json: JSONValue, folder: String, resources: CardResources, format: OutputFormat,
                              encoding: EncodeOptions, pdf: PDFMetadata = PDFMetadata(), render: Bool = true) throws -> Output {
        try self.render(try CardSpec.parse(json, folder: folder, linkSchemes: resources.linkSchemes), resources: resources, format: format, encoding: encoding,
                        pdf: pdf, render: render)
    }

    /// The same for a spec already parsed (a service that looked at it first).
    package static func render(_ spec: CardSpec, resources: CardResources, format: OutputFormat, encoding: EncodeOptions,
                              pdf: PDFMetadata = PDFMetadata(), render: Bool = true) throws -> Output {
        let card = try CardBuilder.build(spec, resources: resources, vectorOutput: format.isVector)
        var options = RenderOptions()
        options.format = format
        options.scale = card.scale
        options.maxPixels = resources.maxPixels
        options.encoding = encoding
        // The card's own text is bounded as the dump is built; a given alt here.
        options.encoding.description = encoding.noAlt ? nil : encoding.alt.map(ImageDescription.bounded) ?? card.alt
        options.pdf = spec.pdf.under(pdf)
        if format == .pdf, let unmet = options.pdf.unmetRequirement() { throw CardError("pdf.pdf-standard", unmet) }
        if format == .pdf, options.pdf.standards.contains(.ua1), let path = spec.imageWithoutAlt {
            throw CardError(join(path, "alt"), "PDF/UA-1 needs alternative text for every picture (a picture that is decoration has no place in an accessible card)")
        }
        // The document's language, unless the caller named one: the first text block's.
        if options.pdf.language == nil {
            options.pdf.language = spec.blocks.lazy.compactMap { block -> String? in
                if case let .text(settings, _) = block.kind, !settings.lang.isEmpty { return settings.lang }
                return nil
            }.first
        }
        options.cancellation = resources.cancellation
        options.memory = resources.memory
        options.oneShot = resources.oneShot
        let bytes = render ? try resources.renderer.render(card.scene, options: options) : []
        return Output(bytes: bytes, card: card, opaque: card.scene.background.isOpaque, description: options.encoding.description)
    }

    /// An animated card: its blocks' effects drawn frame by frame into `format`. `adjust`
    /// changes the spec's timing (the caller's flags win over its keys). The last frame is
    /// the still card `render` draws.
    package static func animate(_ json: JSONValue, variables: [String: String], folder: String, resources: CardResources,
                                format: AnimationFormat, encoding: EncodeOptions, tools: AnimationTools,
                                adjust: (inout AnimationTiming) throws -> Void = { _ in }) throws -> (output: Output, report: AnimationReport) {
        let spec = try CardSpec.parse(try Variables.substitute(json, variables), folder: folder, linkSchemes: resources.linkSchemes)
        return try animate(spec, resources: resources, format: format, encoding: encoding, tools: tools, adjust: adjust)
    }

    /// The same for a spec already parsed (a service that looked at it first).
    package static func animate(_ spec: CardSpec, resources: CardResources, format: AnimationFormat, encoding: EncodeOptions,
                                tools: AnimationTools = AnimationTools(),
                                adjust: (inout AnimationTiming) throws -> Void = { _ in }) throws -> (output: Output, report: AnimationReport) {
        var timing = spec.timing
        try adjust(&timing)
        let card = try CardBuilder.build(spec, resources: resources)
        var options = RenderOptions()
        options.scale = card.scale
        options.maxPixels = resources.maxPixels
        options.encoding = encoding
        options.encoding.description = encoding.noAlt ? nil : encoding.alt.map(ImageDescription.bounded) ?? card.alt
        options.cancellation = resources.cancellation
        options.memory = resources.memory
        let (bytes, report) = try resources.renderer.animate(card.scene, timing: timing, as: format, options: options, tools: tools)
        return (Output(bytes: bytes, card: card, opaque: card.scene.background.isOpaque, description: options.encoding.description), report)
    }
}
