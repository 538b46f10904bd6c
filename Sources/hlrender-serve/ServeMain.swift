import ArgumentParser
import Card
import Glibc
import Serve
import Typeset
import Support

/// `hlrender serve`: the render service. Its own binary so that NIO and Hummingbird never
/// slow the CLI's start; `hlrender serve ...` execs it with the same arguments.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hlrender serve",
        abstract: "An HTTP render service: POST /v1/card, GET /v1/templates/NAME.png, POST /v1/compare, /healthz, /readyz, /metrics.",
        discussion: "Stops accepting on SIGTERM or SIGINT, finishes what is in flight and exits 0.",
        version: "0.1.0")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8080
    @Option(help: ArgumentHelp("Card templates (NAME.json) for GET /v1/templates/NAME.png?var=value.", valueName: "dir"))
    var templates: String?
    @Option(help: ArgumentHelp("The only folder a request may read images and fonts from; relative paths resolve here.", valueName: "dir"))
    var assets: String?
    @Option(help: "Cache-Control max-age of rendered images, in seconds.") var maxAge = 3600
    @Option(help: "Megabytes of rendered images kept in memory (0: no cache).") var cacheMb = 256
    @Option(help: "Largest request body in bytes.") var maxBody = 1 << 20
    @Option(help: "Largest canvas in output pixels.") var maxPixels = 40_000_000
    @Option(help: "Renders at once (default: the number of cores).") var concurrency: Int?
    @Option(help: "Requests that may wait for a render; past that 503 with Retry-After.") var queue: Int?
    @Option(help: "Milliseconds a render may take before the request gets 503.") var timeoutMs = 10_000
    @Option(help: ArgumentHelp("A file holding the bearer token the POST routes require.", valueName: "path")) var tokenFile: String?
    @Option(help: ArgumentHelp("A folder of fonts to load before the pinned ones (repeatable).", valueName: "dir"))
    var fontDir: [String] = []
    @Flag(help: "Also use the system's fonts (off: renders depend only on the pinned fonts and --font-dir).") var systemFonts = false

    func run() async throws {
        var settings = ServeSettings()
        settings.host = host
        settings.port = port
        settings.templates = templates
        settings.assets = assets
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        for (name, value, range) in [("--port", port, 0...65535), ("--max-age", maxAge, 0...31_536_000), ("--cache-mb", cacheMb, 0...1 << 20),
                                     ("--max-body", maxBody, 1...1 << 30), ("--max-pixels", maxPixels, 1...1_000_000_000),
                                     ("--timeout-ms", timeoutMs, 1...3_600_000)] where !range.contains(value) {
            throw fail("\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
        settings.maxAge = maxAge
        settings.cacheBytes = cacheMb << 20
        settings.maxBody = maxBody
        settings.maxPixels = maxPixels
        settings.concurrency = concurrency ?? cores
        settings.queue = queue ?? 8 * settings.concurrency
        guard settings.concurrency >= 1, settings.queue >= 0 else { throw fail("--concurrency must be 1 or more, --queue 0 or more") }
        settings.timeoutMilliseconds = timeoutMs
        settings.fontDirectories = fontDir
        settings.systemFonts = systemFonts
        settings.version = Self.configuration.version
        if let tokenFile {
            guard let file = fopen(tokenFile, "r") else { throw fail("cannot read --token-file '\(tokenFile)'") }
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 4096)
            let token = fgets(&buffer, 4096, file).map { _ in String(cString: buffer).trimmed } ?? ""
            guard !token.isEmpty else { throw fail("--token-file '\(tokenFile)' is empty") }
            settings.token = token
        }
        // Canvases and encoder buffers are megabytes each: glibc would mmap and unmap them per
        // request, and the page faults of zeroing them again cost as much as drawing. Keep
        // them in the heap and let freed memory be reused (RSS stays flat instead).
        // (mallopt is glibc's, not in Swift's Glibc module: looked up by name.)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 256 << 20)
            _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 512 << 20)
        }
        do {
            try await ServeApp.run(settings, fontDirectories: PinnedFonts.directories())
        } catch let error as ServeError {
            throw fail(error.description)
        } catch {
            throw fail("cannot serve on \(host):\(port): \(error)")
        }
    }

    /// One line on stderr, exit status 3, as every hlrender command fails.
    private func fail(_ message: String) -> ExitCode { Self.fail(message) }

    private static func fail(_ message: String) -> ExitCode {
        let line = Array("hlrender: error: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return ExitCode(3)
    }

    /// The entry point: every failure, ArgumentParser's own included, is one line and exit 3
    /// (not a usage dump), as in the CLI; --help and --version print as usual.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var service = command as? ServeCommand {
                try await service.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Glibc.exit(exit.rawValue)
        } catch {
            if exitCode(for: error) == .success { self.exit(withError: error) }
            let message = self.message(for: error)
            let first = message.split(separator: "\n").first.map(String.init) ?? message
            Glibc.exit(fail(first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first).rawValue)
        }
    }
}


