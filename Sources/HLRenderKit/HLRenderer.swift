import Card
import Dispatch
import Render
import Support
import Typeset
import Worker
import PDFPost

/// The image and document formats a render can be written in.
public enum ImageFormat: String, Sendable, CaseIterable {
    /// PNG, lossless, with transparency.
    case png
    /// JPEG (an opaque background is flattened onto white).
    case jpeg
    /// WebP, lossy unless `RenderSettings.lossless`.
    case webp
    /// AVIF (AV1 still image): `RenderSettings.quality`, `avifSpeed` and `avifFullChroma`; needs
    /// libavif at run time.
    case avif
    /// PDF with vector text and links.
    case pdf
    /// SVG: vector highlights and glyph outlines, named by its visible text (`<title>`).
    case svg

    var output: OutputFormat {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        case .webp: return .webp
        case .avif: return .avif
        case .pdf: return .pdf
        case .svg: return .svg
        }
    }
}

/// A standard a PDF conforms to and declares in its XMP metadata.
public enum PDFConformance: String, Sendable, CaseIterable {
    /// PDF/UA-1 (ISO 14289-1), accessible: needs a title and tags.
    case ua1 = "ua-1"
    /// PDF/A-2b (ISO 19005-2, basic), archivable: an sRGB OutputIntent, a document ID,
    /// printable links, fonts embedded.
    case a2b = "a-2b"

    var standard: PDFStandard {
        switch self {
        case .ua1: return .ua1
        case .a2b: return .a2b
        }
    }
}

/// How one card is rendered and encoded.
public struct RenderSettings: Sendable {
    /// The output format.
    public var format: ImageFormat
    /// JPEG, lossy WebP and AVIF quality, 1 to 100.
    public var quality: Int?
    /// WebP without loss.
    public var lossless = false
    /// AVIF encoder speed, 0 (slowest, smallest) to 10; nil for the default (8).
    public var avifSpeed: Int?
    /// AVIF colour at full resolution (4:4:4) instead of halved (4:2:0).
    public var avifFullChroma = false
    /// The PDF's title (the document information and the viewer's window).
    public var title: String?
    /// A PDF's structure tree (paragraphs and headings in reading order, links, the language):
    /// on unless turned off.
    public var tagged = true
    /// Standards a PDF conforms to and declares (PDF/UA-1 needs a title and tags).
    public var pdfStandards: Set<PDFConformance> = []
    /// Values for `{{name}}` in the spec's strings (escaped wherever they land in markup).
    public var variables: [String: String] = [:]
    /// The folder relative paths in the spec resolve against.
    public var folder = "."

    /// Options for `format`.
    public init(format: ImageFormat = .png) { self.format = format }
}

/// A card rendered: the encoded bytes and its layout report.
public struct RenderedCard: Sendable {
    /// The image or PDF.
    public var bytes: [UInt8]
    /// The layout report (`hlrender card --dump-layout`): blocks, lines, boxes, fonts, as JSON.
    public var layoutJSON: String
}

/// The containers `HLRenderer.animateCard` writes.
public enum AnimationContainer: String, Sendable, CaseIterable {
    /// Animated WebP.
    case webp
    /// Animated PNG (APNG): lossless; a viewer without APNG shows the first frame.
    case apng
    /// An AVIF image sequence (AV1; slower to encode than WebP).
    case avif
}

/// The engine behind `hlrender card`: one object that owns the fonts, the caches shared by
/// every render and the environment it was made with. Safe to use from many tasks at once;
/// each render honours its `Task`'s cancellation.
public final class HLRenderer: Sendable {
    /// What the renderer was made with.
    public let environment: RenderEnvironment
    /// The engine every front end renders through, in the world `environment` describes.
    let engine: Engine

    /// A renderer over `environment`'s fonts. Throws when a font folder is missing or holds no
    /// fonts, a font given as bytes is not one, or a link scheme is refused.
    public init(environment: RenderEnvironment) throws(HLRenderError) {
        self.environment = environment
        engine = Engine(world: try environment.world())
    }

    /// Answers a decoder call and exits when `arguments` (the program's, without its name) are
    /// one (see `RenderEnvironment.decoderWorker`); returns at once otherwise. A program that
    /// names itself as its renderers' decoder worker calls this first thing in its `main`.
    public static func answerDecoderCall(_ arguments: [String]) {
        WorkerMain.runIfAsked(arguments)
    }

    /// Renders a card spec (JSON text, the format of `schema/card.schema.json`) to bytes.
    public func renderCard(json: String, options: RenderSettings = RenderSettings()) async throws(HLRenderError) -> RenderedCard {
        try await renderCard(json: try Self.parse(json), options: options)
    }

    /// A spec's JSON text, a syntax error as the library's error.
    static func parse(_ json: String) throws(HLRenderError) -> JSONValue {
        do {
            return try JSONValue.parse(Array(json.utf8))
        } catch {
            throw HLRenderError.from(error)
        }
    }

    /// The same for a spec built as a Swift value.
    public func renderCard(_ spec: CardValue, options: RenderSettings = RenderSettings()) async throws(HLRenderError) -> RenderedCard {
        try await renderCard(json: spec.json, options: options)
    }

    func renderCard(json spec: JSONValue, options: RenderSettings) async throws(HLRenderError) -> RenderedCard {
        let pdf = metadata(title: options.title, tagged: options.tagged, standards: options.pdfStandards)
        let output = try await run { cancellation in
            var job = Job(format: options.format.output, encoding: try self.encoding(options))
            (job.pdf, job.cancellation) = (pdf, cancellation)
            return try self.engine.render(spec, variables: options.variables, folder: options.folder, job: job)
        }
        return RenderedCard(bytes: output.bytes, layoutJSON: output.card.dump.serialized())
    }

    /// Renders a card spec whose blocks have an `animation` as an animated image: WebP (lossy,
    /// or lossless with `options.lossless`), APNG or AVIF. Its last frame is the still card
    /// `renderCard` draws; the layout report gives each effect's timing.
    public func animateCard(json: String, as container: AnimationContainer = .webp,
                            options: RenderSettings = RenderSettings()) async throws(HLRenderError) -> RenderedCard {
        let parsed = try Self.parse(json)
        let output = try await run { cancellation in
            var job = Job(format: .png, encoding: try self.encoding(options))
            job.cancellation = cancellation
            let spec = try self.engine.parse(parsed, variables: options.variables, folder: options.folder)
            return try self.engine.animate(spec, as: container == .webp ? .webp : container == .apng ? .apng : .avif, job: job).output
        }
        return RenderedCard(bytes: output.bytes, layoutJSON: output.card.dump.serialized())
    }

    /// The card's layout report alone (nothing is drawn or encoded).
    public func layoutCard(json: String, options: RenderSettings = RenderSettings()) async throws(HLRenderError) -> String {
        let parsed = try Self.parse(json)
        let output = try await run { cancellation in
            var job = Job(format: .png)
            (job.draw, job.cancellation) = (false, cancellation)
            return try self.engine.render(parsed, variables: options.variables, folder: options.folder, job: job)
        }
        return output.card.dump.serialized()
    }

    /// Runs `work` on a thread of its own (renders block), with a cancellation the calling
    /// task's cancellation sets.
    func run<T: Sendable>(_ work: @escaping @Sendable (Cancellation) throws -> T) async throws(HLRenderError) -> T {
        let cancellation = Cancellation()
        let result: Result<T, HLRenderError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    do {
                        try cancellation.check()
                        continuation.resume(returning: .success(try work(cancellation)))
                    } catch {
                        continuation.resume(returning: .failure(HLRenderError.from(error)))
                    }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }

    /// Through the encoder's option rows, as the CLI's flags and the service's fields are.
    func encoding(_ options: RenderSettings) throws -> EncodeOptions {
        var encoding = EncodeOptions()
        let given: [(String, JSONValue)] = (options.quality.map { [("quality", .number(Double($0)))] } ?? [])
            + (options.avifSpeed.map { [("avif-speed", .number(Double($0)))] } ?? [])
            + [("lossless", .bool(options.lossless)), ("avif-chroma", .string(options.avifFullChroma ? "444" : "420"))]
        for (name, value) in given { try EncodeOptions.options.named(name)!.applyChecked(.json(value), to: &encoding) }
        return encoding
    }

    /// The PDF's information: `title`, tags and standards (the world's clock dates it).
    func metadata(title: String?, tagged: Bool, standards: Set<PDFConformance>) -> PDFMetadata {
        var metadata = PDFMetadata()
        metadata.title = title
        metadata.tagged = tagged
        metadata.standards = Set(standards.map(\.standard))
        return metadata
    }
}
