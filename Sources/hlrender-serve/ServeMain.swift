import ArgumentParser
import Card
import Glibc
import Serve
import Typeset
import ServeConfig
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

    @Option(help: help("host")) var host: String?
    @Option(help: help("port")) var port: String?
    @Option(help: help("templates")) var templates: String?
    @Option(help: help("assets")) var assets: String?
    @Option(help: help("max-age")) var maxAge: String?
    @Option(help: help("cache-mb")) var cacheMb: String?
    @Option(help: help("max-body")) var maxBody: String?
    @Option(help: help("max-pixels")) var maxPixels: String?
    @Option(help: help("concurrency")) var concurrency: String?
    @Option(help: help("queue")) var queue: String?
    @Option(help: help("timeout-ms")) var timeoutMs: String?
    @Option(help: help("read-timeout-ms")) var readTimeoutMs: String?
    @Option(help: help("memory-mb")) var memoryMb: String?
    @Option(help: help("etag-secret-file")) var etagSecretFile: String?
    @Option(help: help("token-file")) var tokenFile: String?
    @Option(help: help("font-dir")) var fontDir: [String] = []
    @Flag(help: help("system-fonts")) var systemFonts = false

    private static func help(_ name: String) -> ArgumentHelp {
        let option = ServeSettings.options.named(name)!
        return ArgumentHelp(option.help, valueName: option.valueName)
    }

    /// The flags through the option table: parsing, ranges and wording live there once.
    func settings() throws -> ServeSettings {
        var settings = ServeSettings()
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        settings.concurrency = cores
        let given: [(String, String?)] = [
            ("host", host), ("port", port), ("templates", templates), ("assets", assets), ("max-age", maxAge),
            ("cache-mb", cacheMb), ("max-body", maxBody), ("max-pixels", maxPixels), ("concurrency", concurrency),
            ("queue", queue), ("timeout-ms", timeoutMs), ("read-timeout-ms", readTimeoutMs), ("memory-mb", memoryMb),
            ("etag-secret-file", etagSecretFile), ("token-file", tokenFile),
            ("system-fonts", systemFonts ? "true" : nil),
        ] + fontDir.map { ("font-dir", $0) }
        for case let (name, value?) in given {
            do {
                try ServeSettings.options.named(name)!.apply(.text(value), to: &settings)
            } catch let error as OptionError {
                throw fail("--\(name): \(error.message)")
            }
        }
        if queue == nil { settings.queue = 8 * settings.concurrency }
        settings.version = Self.configuration.version
        return settings
    }

    func run() async throws {
        let settings = try settings()
        ReuseMemory.forManyImages()
        do {
            try await ServeApp.run(settings, fontDirectories: PinnedFonts.directories())
        } catch let error as ServeError {
            throw fail(error.description)
        } catch {
            throw fail("cannot serve on \(settings.host):\(settings.port): \(error)")
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
            if let service = command as? ServeCommand {
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


