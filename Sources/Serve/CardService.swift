import Card
import Goldens
import Render
import Typeset
import ServeConfig
import Support
import Worker

/// Cards rendered for requests: the fonts loaded once, files only through the asset policy,
/// templates read at start, and the ETag of a render (what it depends on, hashed).
final class CardService: Sendable {
    struct RequestError: Error {
        var status: Int
        var message: String
        var path: String?
    }

    let settings: ServeSettings
    let policy: AssetPolicy
    /// The engine every request renders through, in the service's world (the asset policy's
    /// reads, its caches inside `--cache-mb`).
    let engine: Engine
    let templates: [String: JSONValue]
    /// Hash of the font files the service can use: a new font may change any render.
    let fontSet: String
    /// The ETags' key: without it nobody can compute the ETag of a guessed spec.
    let etagKey: [UInt8]

    init(settings: ServeSettings, fonts environment: FontEnvironment) throws {
        self.settings = settings
        let policy = try AssetPolicy(folder: settings.assets)
        self.policy = policy
        // SVG pictures, compared PDFs and web fonts a request names are decoded in a limited worker.
        let isolation = settings.decoderWorker.map {
            // CPU seconds as long as a request may take: a worker past them is over its time anyway.
            DecoderWorker(executable: $0, seconds: (settings.timeoutMilliseconds + 999) / 1000).isolation
        } ?? .inProcess
        let library = try environment.library(extraDirectories: settings.fontDirectories, systemFonts: settings.systemFonts,
                                              strictFamilies: settings.fontStrict, isolation: isolation)
        var world = World(fonts: try FontContext(library: library), maxPixels: settings.maxPixels) { path in
            try policy.read(path, limit: 64 << 20)
        }
        world.checkFontFile = { _ = try policy.resolve($0) }
        world.linkSchemes = settings.linkSchemes
        world.isolation = isolation
        (world.pictureCacheBytes, world.backgroundCacheBytes) = (settings.pictureCacheBytes, settings.backgroundCacheBytes)
        engine = Engine(world: world)
        templates = try CardService.loadTemplates(settings.templates)
        // Swift's system generator is the kernel's CSPRNG (getrandom).
        etagKey = settings.etagKey ?? (0..<32).map { _ in UInt8.random(in: 0...255) }
        fontSet = SHA256.hex(Array((settings.fontDirectories + environment.pinnedDirectories).flatMap(CardService.listing).joined(separator: "\n").utf8))
    }

    /// The spec with its variables filled (once per request: the ETag and the render share it).
    func fill(_ json: JSONValue, variables: [String: String]) throws -> JSONValue {
        do {
            return try Variables.substitute(json, variables)
        } catch let error as CardError {
            // A template's variables are the query's parameters; a posted spec has none.
            let names = error.missingVariables.map { "\($0)=..." }.joined(separator: ", ")
            let hint = error.missingVariables.isEmpty ? ""
                : error.missingVariables.count == 1 ? " (a template takes it as the query parameter \(names); a posted spec takes no variables)"
                : " (a template takes them as the query parameters \(names); a posted spec takes no variables)"
            throw RequestError(status: 422, message: error.message + hint, path: error.path.isEmpty ? nil : error.path)
        }
    }

    /// The filled spec parsed (checked before anything is looked up or rendered).
    func parse(_ filled: JSONValue) throws -> CardSpec {
        do {
            return try engine.parse(filled: filled, folder: policy.folder)
        } catch let error as CardError {
            throw RequestError(status: 422, message: policy.shown(error.message), path: error.path.isEmpty ? nil : error.path)
        }
    }

    /// The strong ETag of a render, keyed with the service's secret: the filled spec (keys
    /// sorted), the identity of every file it reads (a replaced picture or font changes it),
    /// the format and its encoder settings, hlrender's version and the font set.
    func etag(_ filled: JSONValue, spec: CardSpec, format: OutputFormat, encoding: EncodeOptions, animated: Bool = false) -> String {
        // Every encoder setting (the AVIF effort and chroma change the bytes too) and the
        // description, written as JSON so no text of it can pass for a separator.
        let encoder = "\(encoding.pngCompression.rawValue) \(encoding.quality) \(encoding.lossless) \(encoding.avifSpeed) "
            + "\(encoding.avifChroma.rawValue) \(encoding.noAlt) " + (encoding.alt.map { JSONValue.string($0).serialized() } ?? "-")
        let world = engine.world
        let files = spec.files(isFile: world.isRegularFile).map { "\($0) \(world.fileIdentity($0) ?? "-")" }.joined(separator: "\n")
        let key = [settings.version, fontSet, format.rawValue + (animated ? " animated" : ""), encoder, files, CardService.sortedKeys(filled).serialized()]
            .joined(separator: "\u{0}")
        return "\"" + SHA256.hmacHex(key: etagKey, Array(key.utf8)).prefix(32) + "\""
    }

    /// Renders a parsed card spec; what the card library refuses becomes 422 (with the JSON
    /// path of the problem when there is one). The job's cancellation stops it at its next
    /// check; what drawing needs comes from the job's share of the memory budget (a refusal
    /// goes up as it is: the gate's caller answers every budget refusal in one place).
    /// `animated`: the spec's effects drawn as an animated WebP, APNG or AVIF (`format` webp,
    /// png or avif).
    func render(_ spec: CardSpec, format: OutputFormat, encoding: EncodeOptions = EncodeOptions(),
                cancellation: Cancellation? = nil, memory: MemoryBudget.Lease? = nil, animated: Bool = false) throws -> RenderedImage {
        var job = Job(format: format, encoding: encoding)
        (job.cancellation, job.memory) = (cancellation, memory)
        job.layoutReport = false  // a response is the image alone
        do {
            if animated, let container = AnimationFormat(extension: format.fileExtension) {
                let output = try engine.animate(spec, as: container, job: job).output
                return RenderedImage(bytes: output.bytes, description: output.description ?? "")
            }
            let output = try engine.render(spec, job: job)
            return RenderedImage(bytes: output.bytes, description: output.description ?? "")
        } catch let error as CardError {
            throw RequestError(status: 422, message: policy.shown(error.message), path: error.path.isEmpty ? nil : error.path)
        } catch let error as RenderError {
            throw RequestError(status: 422, message: policy.shown(error.description), path: nil)
        } catch let error as TypesetError {
            throw RequestError(status: 422, message: policy.shown(error.description), path: nil)
        }
    }

    private static func loadTemplates(_ folder: String?) throws -> [String: JSONValue] {
        guard let folder else { return [:] }
        guard let names = Posix.entries(of: folder) else { throw RequestError(status: 500, message: "templates folder '\(folder)' cannot be read") }
        var templates: [String: JSONValue] = [:]
        for name in names {
            guard name.hasSuffix(".json"), let template = templateName(String(name.dropLast(5))) else { continue }
            let path = folder + "/" + name
            guard let bytes = try? Posix.readFile(path, as: "template", limit: 1 << 20) else { continue }
            do {
                templates[template] = try JSONValue.parse(bytes)
            } catch {
                throw RequestError(status: 500, message: "template '\(name)': \(error)")
            }
        }
        return templates
    }

    /// A template name from a URL: letters, digits, '-' and '_' only (nothing that could walk
    /// the file system).
    static func templateName(_ text: String) -> String? {
        guard (1...100).contains(text.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        return text
    }

    /// Each font file's name and identity, sorted (what the ETag's font set hashes).
    private static func listing(_ folder: String) -> [String] {
        (Posix.entries(of: folder) ?? []).compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            return Posix.identity(folder + "/" + name).map { "\(name) \($0)" }
        }.sorted()
    }

    static func sortedKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .object(members): .object(members.sorted { $0.key < $1.key }.map { ($0.key, sortedKeys($0.value)) })
        case let .array(items): .array(items.map(sortedKeys))
        default: value
        }
    }
}
