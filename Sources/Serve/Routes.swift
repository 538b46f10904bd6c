// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Codecs
import Card
import Compare
import Goldens
import PDFGoldens
import HTTPForms
import Hummingbird
import Render
import ServeConfig
import Support

/// The service's routes. Handlers only translate HTTP into the card library's calls and its
/// errors into JSON; rendering runs behind the gate, off the event loops.
struct Routes: Sendable {
    let service: CardService
    let gate: RenderGate
    /// Bodies being received, all connections together.
    let bodies: BodyBudget
    let cache: RenderedCache
    let metrics: ServeMetrics
    let settings: ServeSettings
    let shuttingDown: ShutdownFlag
    let clients: ClientWatch

    /// Every route and the methods it takes: registered from here, and MethodRules answers
    /// 405 (and HEAD) from the same table.
    static let table: [(path: String, methods: [HTTPRequest.Method])] = [
        ("/v1/card", [.post]), ("/v1/compare", [.post]), ("/v1/templates/:file", [.get, .head]),
        ("/healthz", [.get, .head]), ("/readyz", [.get, .head]), ("/metrics", [.get, .head]),
    ]

    func add(to router: Router<ServeContext>) {
        for (path, methods) in Self.table {
            for method in methods {
                router.on(RouterPath(path), method: method) { request, context in try await respond(path, request, context) }
            }
        }
    }

    private func respond(_ route: String, _ request: Request, _ context: ServeContext) async throws -> Response {
        switch route {
        case "/v1/card": return try await card(request, context)
        case "/v1/compare": return try await compare(request, context)
        case "/v1/templates/:file": return try await template(request, context)
        case "/healthz": return alive()
        case "/readyz": return ready()
        default: return metricsPage()
        }
    }

    /// Liveness: a slot whose render has not returned long after it was answered (four
    /// timeouts, at least a minute) will not come back; only a restart frees it.
    private func alive() -> Response {
        if let problem = Self.liveness(stuck: gate.longestStuck, timeoutMilliseconds: settings.timeoutMilliseconds) {
            return HTTP.error(.serviceUnavailable, problem)
        }
        return HTTP.json(.members([("status", .string("ok"))]))
    }

    /// The liveness rule: nil while the slot stuck the longest (`RenderGate.longestStuck`) has
    /// held its render for at most four timeouts (at least a minute), else why not.
    static func liveness(stuck: Duration, timeoutMilliseconds: Int) -> String? {
        let limit = max(Duration.seconds(60), .milliseconds(timeoutMilliseconds * 4))
        guard stuck > limit else { return nil }
        return "a render slot has been stuck for \(stuck.components.seconds) s (limit \(limit.components.seconds) s)"
    }

    private func ready() -> Response {
        if shuttingDown.value { return HTTP.error(.serviceUnavailable, "shutting down") }
        if gate.depth >= gate.queue { return HTTP.error(.serviceUnavailable, "render queue full", headers: [.retryAfter: "1"]) }
        if gate.allStuck {
            return HTTP.error(.serviceUnavailable, "every render slot holds a render past its deadline", headers: [.retryAfter: "5"])
        }
        return HTTP.json(.members([("status", .string("ready"))]))
    }

    private func metricsPage() -> Response {
        metrics.queueDepth.set(Double(gate.depth))
        metrics.inFlight.set(Double(gate.running))
        metrics.cacheBytes.set(Double(cache.totalBytes))
        metrics.memoryReserved.set(Double(gate.memoryInUse))
        metrics.stuckSlots.set(Double(gate.allStuck ? 1 : 0))
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                        body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
    }

    // MARK: - Routes

    private func card(_ request: Request, _ context: ServeContext) async throws -> Response {
        if let refused = authorize(request) { return refused }
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else {
            return HTTP.error(.unsupportedMediaType, "send the card spec as application/json")
        }
        let format: OutputFormat
        switch chooseFormat(request) {
        case let .success(f): format = f
        case let .failure(failure): return failure.response
        }
        let body: [UInt8]
        switch await readBody(request) {
        case let .success(bytes): body = bytes
        case let .failure(failure): return failure.response
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch let error as JSONSyntaxError {
            return HTTP.error(.badRequest, "the body is not JSON: \(error)")
        }
        guard case .object = json else { return HTTP.error(.unprocessableContent, "a card spec is a JSON object") }
        return try await rendered(json, variables: [:], format: format, request: request, context: context, received: body.count)
    }

    private func template(_ request: Request, _ context: ServeContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        guard let dot = file.lastIndex(of: "."), let name = CardService.templateName(String(file[..<dot])),
              let format = HTTP.format(named: String(file[file.index(after: dot)...])) else {
            return HTTP.error(.notFound, "no such template: use /v1/templates/NAME.png (\(OutputFormat.extensionList))")
        }
        if let key = settings.urlSigningKey,
           let refusal = URLSignature.check(path: request.uri.path, query: request.uri.query, key: key, now: settings.unixTime()) {
            return HTTP.error(.forbidden, "\(refusal)")
        }
        guard let json = service.templates[name] else { return HTTP.error(.notFound, "no template named '\(name)'") }
        let fields: [(String, String)]
        do {
            fields = try QueryString.fields(request.uri.query)
        } catch {
            return HTTP.error(.badRequest, "the query string is not valid percent-encoded UTF-8")
        }
        var variables: [String: String] = [:]
        for (key, value) in fields where EncodeOptions.options.named(key) == nil && key != URLSignature.parameter && !(key == URLSignature.expiry && settings.urlSigningKey != nil) {
            guard value.utf8.count <= settings.maxBody else { return HTTP.error(.contentTooLarge, "variable '\(key)' is too long") }
            variables[key] = value
        }
        return try await rendered(json, variables: variables, format: format, request: request, context: context,
                                  received: variables.values.reduce(0) { $0 + $1.utf8.count })
    }

    private func compare(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard settings.token != nil || settings.openCompare else {
            return HTTP.error(.forbidden, "POST /v1/compare is off: the service needs --token-file (or --open-compare) to decode compared files")
        }
        if let refused = authorize(request) { return refused }
        guard let boundary = Multipart.boundary(contentType: request.headers[.contentType] ?? "") else {
            return HTTP.error(.unsupportedMediaType, "send two images (PNG, JPEG, WebP) or two PDFs as multipart/form-data (fields 'expected' and 'actual')")
        }
        let body: [UInt8]
        switch await readBody(request) {
        case let .success(bytes): body = bytes
        case let .failure(failure): return failure.response
        }
        let parts: [Multipart.Part]
        do {
            parts = try Multipart.parse(body, boundary: boundary)
        } catch {
            return HTTP.error(.badRequest, "\(error)")
        }
        guard let expected = parts.first(where: { $0.name == "expected" }), let actual = parts.first(where: { $0.name == "actual" }) else {
            return HTTP.error(.unprocessableContent, "the form needs the files 'expected' and 'actual'")
        }
        // The comparison options by the names the CLI and manifests use, checked in one place.
        var tolerance = GoldenTolerance()
        var given: [(String, String)] = []
        for part in parts where GoldenTolerance.optionNames.contains(part.name) {
            let text = String(decoding: part.bytes, as: UTF8.self).trimmed
            do {
                try tolerance.set(part.name, .text(text))
                given.append((part.name, text))
            } catch {
                return HTTP.error(.unprocessableContent, "\(error)", path: part.name)
            }
        }
        let maxPixels = settings.maxPixels
        let chosen = tolerance
        if PDFComparison.isPDF(expected.bytes) || PDFComparison.isPDF(actual.bytes) {
            // One page at a time: its two rasters and the difference, in the decoder worker
            // (poppler reads the files there) when the service has one. What that takes is
            // the largest page's, read first from the pages' boxes (drawing nothing), and
            // reserved before any page is drawn.
            let isolation = service.engine.world.isolation
            let fields = PDFTasks.fields(expected: expected.bytes, actual: actual.bytes, options: given, maxPixels: maxPixels, maxPages: 2_000)
            let parsing = body.count * 2 + (16 << 20)
            return await behindGate(context, reserve: parsing, heavy: true) { job throws -> JSONValue in
                do {
                    let sizing = Isolation.Call(task: PDFTasks.largestPage, fields: fields, memoryBytes: parsing)
                    let answer = try isolation.perform(sizing, cancellation: job.cancellation) { try PDFTasks.largestPage($0) }
                    let pixels = Checked.clamped(try (Fields(decoding: answer) ?? Fields()).number("pixels"), .up, in: 0...maxPixels)
                    try job.memory?.reserve(pixels * 4 * 3)
                    let call = Isolation.Call(task: PDFTasks.compare, fields: fields, memoryBytes: parsing + pixels * 4 * 3)
                    let report = try isolation.perform(call, cancellation: job.cancellation) { try PDFTasks.compare($0, cancellation: job.cancellation) }
                    return try JSONValue.parse(report)
                } catch let error as MemoryBudget.Exceeded {
                    throw error
                } catch {
                    try job.cancellation.check()
                    let text = "\(error)"
                    let name = text.hasPrefix("actual: ") ? "actual" : text.hasPrefix("expected: ") ? "expected" : "documents"
                    throw CardService.RequestError(status: 422, message: text, path: name)
                }
            } respond: { HTTP.json($0) }
        }
        // Both pictures decoded, their difference and a padded canvas: reserved before decoding.
        let pixels = [expected.bytes, actual.bytes].reduce(0) { $0 + (ImageDecoder.pixelCount($1) ?? 0) }
        return await behindGate(context, reserve: body.count + pixels * 4 * 3, heavy: body.count >= Self.heavyRequest) { _ throws -> JSONValue in
            let outcome: Comparison.Outcome
            do {
                outcome = try Comparison.compare(expected: expected.bytes, actual: actual.bytes, tolerance: chosen, maxPixels: maxPixels)
            } catch let error as ComparisonError {
                let name = error.image?.rawValue ?? "images"
                throw CardService.RequestError(status: 422, message: "\(name): \(error)", path: name)
            }
            return CompareReport.json(outcome, tolerance: chosen)
        } respond: { HTTP.json($0) }
    }

    // MARK: - Rendering behind the cache and the gate

    private func rendered(_ json: JSONValue, variables: [String: String], format: OutputFormat, request: Request,
                          context: ServeContext, received: Int) async throws -> Response {
        let encoding: EncodeOptions
        switch chooseEncoding(request) {
        case let .success(e): encoding = e
        case let .failure(failure): return failure.response
        }
        let filled: JSONValue, spec: CardSpec
        do {
            filled = try service.fill(json, variables: variables)
            spec = try service.parse(filled)
        } catch let error as CardService.RequestError {
            return HTTP.error(.init(code: error.status), error.message, path: error.path)
        }
        // A spec with effects is an animation in WebP, PNG (APNG) and AVIF (an image sequence)
        // unless ?animate=0 asks for the still card; ?animate=1 asks for one (and is refused
        // where the format has none).
        let animateAsked = request.uri.queryParameters.get("animate")
        guard animateAsked == nil || ["0", "1"].contains(animateAsked!) else {
            return HTTP.error(.badRequest, "animate must be 0 or 1, got '\(animateAsked!.prefix(40))'", path: "animate")
        }
        let moves = AnimationFormat(extension: format.fileExtension).map { $0 != .mp4 } ?? false
        if animateAsked == "1" && !moves {
            return HTTP.error(.notAcceptable, "an animation is written as WebP, PNG (APNG) or AVIF, not \(format.displayName)", path: "animate")
        }
        if animateAsked == "1" && !spec.isAnimated {
            return HTTP.error(.unprocessableContent, "animate=1 but no block of the spec has an animation", path: "animate")
        }
        let animated = animateAsked != "0" && spec.isAnimated && moves
        // Restricted content is never named: an ETag (a hash of the hidden text) would let a
        // client test guesses against it, and no shared cache may keep the picture.
        let etag = spec.isRestricted ? nil : service.etag(filled, spec: spec, format: format, encoding: encoding, animated: animated)
        var headers: HTTPFields = [.contentType: HTTP.contentType(format), .vary: "Accept"]
        headers[.cacheControl] = etag == nil ? "private, no-store" : "public, max-age=\(settings.maxAge)"
        if let etag {
            headers[.eTag] = etag
            let fresh = HTTP.wantsFresh(request.headers[.cacheControl])
            // `*` matches any current representation: only a GET (or HEAD) is answered 304 by it.
            let starAllowed = request.method == .get || request.method == .head
            if !fresh && HTTP.matches(ifNoneMatch: request.headers[.ifNoneMatch], etag: etag, star: starAllowed) {
                metrics.cacheHits.increment()
                headers[.contentType] = nil
                return Response(status: .notModified, headers: headers)
            }
            if !fresh, let hit = cache[etag] {
                metrics.cacheHits.increment()
                HTTP.describe(&headers, hit.description)
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: hit.bytes)))
            }
            metrics.cacheMisses.increment()
        }
        let service = self.service
        let started = ContinuousClock.now
        // Laying the text out takes memory in proportion to it: reserved before queueing; what
        // drawing takes is reserved once the layout knows the canvas. A card with an SVG picture
        // is heavy whatever its size: librsvg may take the whole deadline (a light slot stays
        // free for small cards); so is an animation, a card drawn once a frame.
        let decodes = spec.files(isFile: service.engine.world.isRegularFile).contains { $0.lowercased().hasSuffix(".svg") }
        return await behindGate(context, reserve: (2 << 20) + 64 * received, heavy: decodes || animated || received >= Self.heavyRequest) { job in
            try service.render(spec, format: format, encoding: encoding, cancellation: job.cancellation, memory: job.memory, animated: animated)
        } respond: { image in
            metrics.renderSeconds.record(ContinuousClock.now - started)
            if let etag { cache.store(image, for: etag) }
            var headers = headers
            HTTP.describe(&headers, image.description)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
        }
    }

    /// `work` on a render slot, its result turned into a response by `respond`; a refused
    /// spec, a full queue or memory budget and a timeout become JSON errors. `reserve` bytes of
    /// the memory budget are taken before queueing; a client that leaves abandons the job.
    /// Requests of this many bytes or more are heavy: they never take the last free render
    /// slot, so a flood of large texts cannot keep small cards waiting (a 1 MB span hog runs
    /// to its deadline; a story card is a few hundred bytes).
    static let heavyRequest = 64 << 10

    private func behindGate<T: Sendable>(_ context: ServeContext, reserve: Int, heavy: Bool,
                                         _ work: @escaping @Sendable (RenderGate.Job) throws -> T,
                                         respond: (T) -> Response) async -> Response {
        let job = gate.job(deadline: ContinuousClock.now + .milliseconds(settings.timeoutMilliseconds), heavy: heavy), gate = self.gate
        clients.whenGone(context.channel) { gate.abandon(job) }
        defer { clients.answered(context.channel) }
        do {
            try job.memory?.reserve(reserve)
            return respond(try await gate.run(job) { try work(job) })
        } catch let error as CardService.RequestError {
            return HTTP.error(.init(code: error.status), error.message, path: error.path)
        } catch let error as MemoryBudget.Exceeded {
            return error.neverFits ? HTTP.error(.contentTooLarge, "the request \(error)")
                : HTTP.error(.serviceUnavailable, "busy: the request \(error); retry shortly", headers: [.retryAfter: "1"])
        } catch is RenderGate.Overloaded {
            return overloaded()
        } catch let error as RenderGate.TimedOut {
            return timedOut(queued: error.queued)
        } catch is Cancellation.Cancelled {
            return timedOut(queued: false)
        } catch is RenderGate.Abandoned {
            return HTTP.error(.serviceUnavailable, "the client went away")
        } catch {
            return HTTP.error(.internalServerError, "the render failed")
        }
    }

    private func overloaded() -> Response {
        HTTP.error(.serviceUnavailable, "busy: \(gate.limit) renders running and \(gate.queue) waiting; retry shortly",
                   headers: [.retryAfter: "1"])
    }

    private func timedOut(queued: Bool) -> Response {
        let what = queued ? "no render slot came free within" : "the render took longer than"
        return HTTP.error(.serviceUnavailable, "\(what) \(settings.timeoutMilliseconds) ms", headers: [.retryAfter: "5"])
    }

    // MARK: - Request pieces

    /// The bearer token, when the service has one: compared in constant time.
    private func authorize(_ request: Request) -> Response? {
        guard let token = settings.token else { return nil }
        let given = Array((request.headers[.authorization] ?? "").utf8), wanted = Array("Bearer \(token)".utf8)
        var difference = given.count == wanted.count ? 0 : 1
        for (a, b) in zip(given, wanted) { difference |= Int(a ^ b) }
        guard difference != 0 else { return nil }
        return HTTP.error(.unauthorized, "a bearer token is required", headers: [.wwwAuthenticate: "Bearer"])
    }

    /// The encoder options a query names (`quality`, `png-compression`, `lossless`), parsed by
    /// the same definitions as the CLI's flags.
    private func chooseEncoding(_ request: Request) -> Result<EncodeOptions, ResponseFailure> {
        var encoding = EncodeOptions()
        for option in EncodeOptions.options {
            guard let value = request.uri.queryParameters.get(option.name) else { continue }
            do {
                try option.apply(.text(value), to: &encoding)
            } catch {
                return .failure(ResponseFailure(HTTP.error(.unprocessableContent, "\(error)", path: option.name)))
            }
        }
        // aom's effort is single-threaded and cannot be cancelled: the operator sets how slow
        // a request may make it.
        guard encoding.avifSpeed >= settings.slowestAVIFSpeed else {
            return .failure(ResponseFailure(HTTP.error(.unprocessableContent,
                "must be \(settings.slowestAVIFSpeed) to 10 here (the service's --slowest-avif-speed), got \(encoding.avifSpeed)", path: "avif-speed")))
        }
        return .success(encoding)
    }

    private func chooseFormat(_ request: Request) -> Result<OutputFormat, ResponseFailure> {
        if let name = request.uri.queryParameters.get("format") {
            guard let format = HTTP.format(named: name) else {
                return .failure(ResponseFailure(HTTP.error(.badRequest, "format '\(name)' is not \(OutputFormat.nameList)", path: "format")))
            }
            return .success(format)
        }
        guard let format = HTTP.negotiate(accept: request.headers[.accept]) else {
            return .failure(ResponseFailure(HTTP.error(.notAcceptable, "Accept names nothing this service makes: \(HTTP.mediaTypes.map(\.type).joined(separator: ", "))")))
        }
        return .success(format)
    }

    /// The body, refused with 413 past `maxBody` (by Content-Length before reading any of it).
    /// The body, at most `--max-body` bytes and within the read timeout as a whole (a client
    /// trickling bytes to hold a connection gets 408 and is closed).
    private func readBody(_ request: Request) async -> Result<[UInt8], ResponseFailure> {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > settings.maxBody {
            return .failure(ResponseFailure(HTTP.error(.contentTooLarge, "the body is over \(settings.maxBody) bytes")))
        }
        let body = request.body, limit = settings.maxBody, timeout = settings.readTimeoutMilliseconds
        let lease = bodies.budget.lease()
        defer { lease.end() }
        let busy = ResponseFailure(HTTP.error(.serviceUnavailable, "too many request bodies are being received; retry",
                                              headers: [.retryAfter: "1", .connection: "close"]))
        // The declared length first: a body that cannot fit is refused before a byte is buffered.
        if let length = request.headers[.contentLength].flatMap(Int.init) {
            do { try lease.reserve(length) } catch { return .failure(busy) }
        }
        enum Outcome: Sendable { case bytes([UInt8]), tooLarge, timedOut, busy }
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                do {
                    for try await chunk in body {
                        guard bytes.count + chunk.readableBytes <= limit else { return .tooLarge }
                        // Past the declared length (or with none): each chunk is reserved as it comes.
                        if bytes.count + chunk.readableBytes > lease.bytes {
                            do { try lease.reserve(bytes.count + chunk.readableBytes - lease.bytes) } catch { return .busy }
                        }
                        bytes.append(contentsOf: chunk.readableBytesView)
                    }
                } catch {
                    return .tooLarge
                }
                return .bytes(bytes)
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(timeout))
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
        switch outcome {
        case let .bytes(bytes):
            return .success(bytes)
        case .busy:
            return .failure(busy)
        case .tooLarge:
            return .failure(ResponseFailure(HTTP.error(.contentTooLarge, "the body is over \(settings.maxBody) bytes")))
        case .timedOut:
            return .failure(ResponseFailure(HTTP.error(.requestTimeout, "the body took longer than \(timeout) ms", headers: [.connection: "close"])))
        }
    }
}

/// A response to send instead of going on (a `Result` failure needs an `Error`).
struct ResponseFailure: Error {
    let response: Response
    init(_ response: Response) { self.response = response }
}
#endif
