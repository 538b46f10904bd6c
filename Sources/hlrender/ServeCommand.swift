import ArgumentParser
import Glibc
import Support

/// `hlrender serve ...` runs the `hlrender-serve` binary beside this one with the same
/// arguments: the service links NIO and Hummingbird, which would slow every CLI start.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP render service (hlrender serve --help for its options).")

    @Argument(parsing: .captureForPassthrough, help: "The service's options.") var arguments: [String] = []

    func run() throws {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = own.lastIndex(of: "/").map { String(own[..<$0]) } ?? "."
        let server = folder + "/hlrender-serve"
        guard access(server, X_OK) == 0 else {
            throw CLIFailure(message: "'\(server)' is not there: build it with `swift build -c release --product hlrender-serve`")
        }
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        throw CLIFailure(message: "cannot run '\(server)': \(Posix.reason())")
    }
}
