import Card
import Flags
import Glibc
import Serve
import ServeConfig
import Support

/// `hlrender serve`: the render service. Its own binary so that NIO and Hummingbird never
/// slow the CLI's start; `hlrender serve ...` execs it with the same arguments. Its flags are
/// the service's option table (ServeFlags).
@main
enum ServeMain {
    static let version = "0.1.0"

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            print(version)
            return
        }
        do {
            let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            var settings = try ServeFlags.parse(arguments).settings(cores: cores)
            settings.version = version
            ReuseMemory.forManyImages()
            do {
                try await ServeApp.run(settings, fontDirectories: PinnedFonts.directories())
            } catch let error as ServeError {
                fail(error.description)
            } catch {
                fail("cannot serve on \(settings.host):\(settings.port): \(error)")
            }
        } catch is HelpRequest {
            print(ServeFlags.helpPage(columns: terminalColumns()), terminator: "")
        } catch {
            fail(String(describing: error))
        }
    }

    /// One line on stderr, exit status 3, as every hlrender command fails.
    private static func fail(_ message: String) -> Never {
        let line = Array("hlrender: error: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(3)
    }
}
