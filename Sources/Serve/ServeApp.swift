// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import ServeConfig
import Support
import Typeset
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Glibc
import ServiceLifecycle
import Synchronization

/// Set once graceful shutdown has begun: /readyz then says 503 so load balancers drain us.
/// Request ids, counted from 1.
final class RequestCounter: Sendable {
    private let value = Atomic<UInt64>(0)
    func next() -> UInt64 { value.add(1, ordering: .relaxed).newValue }
}

final class ShutdownFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var value: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// Waits for graceful shutdown (SIGTERM, SIGINT) and raises the flag; the server itself stops
/// accepting and lets requests in flight finish.
struct ShutdownWatcher: Service {
    let flag: ShutdownFlag
    func run() async throws {
        try? await gracefulShutdown()
        flag.set()
    }
}

/// One log line per request (id, method, route, status, ms, bytes) and the request counter.
struct RequestLog: RouterMiddleware {
    typealias Context = ServeContext
    let metrics: ServeMetrics
    let logger: Logger
    private let counter = RequestCounter()

    init(metrics: ServeMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = counter.next()
        let start = ContinuousClock.now
        var status = 500, bytes = 0
        defer {
            let route = context.endpointPath ?? "unmatched"
            let elapsed = ContinuousClock.now - start
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            metrics.request(route: route, status: status)
            logger.info("request", metadata: [
                "id": "\(id)", "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(status)",
                "ms": "\((ms * 10).rounded() / 10)", "bytes": "\(bytes)",
            ])
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            bytes = response.body.contentLength ?? 0
            return response
        } catch let error as HTTPError {
            status = error.status.code
            throw error
        }
    }
}

/// The render service as a Hummingbird application.
package enum ServeApp {
    /// The application for `settings`; `fonts` names the pinned fonts and the caches. `gate`
    /// replaces the render slots the settings describe (a test holds a slot through it).
    package static func application(_ settings: ServeSettings, fonts: FontEnvironment,
                                   logger: Logger = Logger(label: "hlrender.serve"),
                                   gate: RenderGate? = nil) throws -> some ApplicationProtocol {
        let service: CardService
        do {
            service = try CardService(settings: settings, fonts: fonts)
        } catch let error as CardService.RequestError {
            throw ServeError(error.message)
        } catch {
            throw ServeError("\(error)")
        }
        // A family substituted or a style synthesised is logged once (at most 1,000 notes),
        // its text bounded and its control characters escaped as a refused path's are.
        service.engine.world.library.notices.observe { note in
            logger.notice("font", metadata: ["note": "\(MethodRules.shown(note))"])
        }
        let metrics = ServeMetrics()
        let flag = ShutdownFlag()
        let router = Router(context: ServeContext.self)
        router.add(middleware: RequestLog(metrics: metrics, logger: logger))
        router.add(middleware: MethodRules())
        let watch = ClientWatch(limit: settings.maxConnections) { metrics.connectionsRefused.increment() }
        let memory = MemoryBudget(bytes: settings.memoryBudget)
        let gate = gate ?? RenderGate(limit: settings.concurrency, queue: settings.queue, budget: memory)
        Routes(service: service, gate: gate, bodies: BodyBudget(settings: settings, within: memory), cache: RenderedCache(limit: settings.renderedCacheBytes), metrics: metrics,
               settings: settings, shuttingDown: flag, clients: watch)
            .add(to: router)
        // A client silent for the read timeout while its request is read is cut off (headers
        // or body trickled to hold a connection); a render in progress is not affected. The
        // watch sees a client leave, so its queued or running render is abandoned.
        let http = HTTP1Channel.Configuration(additionalChannelHandlers: [watch.handler()],
                                              idleTimeout: .milliseconds(Int64(settings.readTimeoutMilliseconds)))
        return Application(router: router, server: .http1(configuration: http),
                           configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "hlrender"),
                           services: [ShutdownWatcher(flag: flag)], logger: logger)
    }

    /// Runs until SIGTERM or SIGINT, then stops accepting, finishes what is in flight and returns.
    package static func run(_ settings: ServeSettings, fonts: FontEnvironment) async throws {
        var logger = Logger(label: "hlrender.serve")
        logger.logLevel = .info
        let app = try application(settings, fonts: fonts, logger: logger)
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch let error as IOError {
            // NIO's own text names its internal call ("bind(descriptor:ptr:bytes:): ...)"):
            // the system's words for the errno say it to a user.
            throw ServeError("cannot serve on \(settings.host):\(settings.port): \(String(cString: strerror(error.errnoCode)))")
        }
    }
}
#endif
