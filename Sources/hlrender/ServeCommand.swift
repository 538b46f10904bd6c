import Host
import Flags
import Glibc
import ServeConfig
import Support

/// `hlrender serve ...` runs the `hlrender-serve` binary beside this one with the same
/// arguments: the service links NIO and Hummingbird, which would slow every CLI start.
struct ServeCommand: Command {
    static let info = CommandInfo(
        name: "serve",
        abstract: "Run the HTTP render service (hlrender serve --help for its options).",
        passesArguments: true)

    @Argument(help: "The service's options.") var arguments: [String] = []

    func run() throws {
        let own = Posix.executablePath() ?? CommandLine.arguments[0]
        let folder = own.lastIndex(of: "/").map { String(own[..<$0]) } ?? "."
        let server = folder + "/hlrender-serve"
        guard access(server, X_OK) == 0 else {
            // Its flags are known here (one option table): help works before the service is built.
            if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
                print(Self.offlineHelp(server: server), terminator: "")
                return
            }
            throw CLIFailure(message: "'\(server)' is not there: build it with `make serve` (or `scripts/swift-release.sh --product hlrender-serve`), or install it with `make install SERVICE=1`")
        }
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        throw CLIFailure(message: "cannot run '\(server)': \(Posix.reason())")
    }

    /// The service's help page from its option table, for `serve --help` without the binary.
    static func offlineHelp(server: String) -> String {
        ServeFlags.helpPage(note: "Runs \(server) (not built yet: `make serve` builds it).", columns: terminalColumns())
    }
}
