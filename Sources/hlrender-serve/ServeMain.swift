import Host
import Flags
import Glibc
import Serve
import ServeConfig
import Support
import Typeset
import Worker

/// `hlrender serve`: the render service. Its own binary so that NIO and Hummingbird never
/// slow the CLI's start; `hlrender serve ...` execs it with the same arguments. Its flags are
/// the service's option table (ServeFlags).
@main
enum ServeMain {
    static let version = HLRenderVersion.current

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // A decoder worker spawned from this binary answers its call and exits here.
        WorkerMain.runIfAsked(arguments)
        if arguments == ["--version"] {
            print(version)
            return
        }
        #if !Service
        fail("this hlrender-serve was built without the Service trait (swift build --traits Service)")
        #else
        do {
            let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            var settings = try ServeFlags.parse(arguments).settings(cores: cores)
            settings.version = version
            // SVG pictures and compared PDFs are decoded by this same binary in a limited worker.
            settings.decoderWorker = Posix.executablePath()
            ReuseMemory.forManyImages(workers: settings.concurrency)
            do {
                let pinned = try Host.pinnedFontDirectories()
                for warning in Host.danglingFontWarnings(in: pinned) { say("hlrender: warning: \(warning)") }
                let fonts = FontEnvironment(pinnedDirectories: pinned, cacheDirectory: Host.cacheDirectory(),
                                            hyphenation: Hyphenation(folders: Host.hyphenationFolders()))
                try await ServeApp.run(settings, fonts: fonts)
            } catch let error as ServeError {
                fail(error.description)
            } catch let error as HostError {
                fail(error.message)
            } catch {
                fail("cannot serve on \(settings.host):\(settings.port): \(error)")
            }
        } catch is HelpRequest {
            print(ServeFlags.helpPage(columns: terminalColumns()), terminator: "")
        } catch {
            fail(String(describing: error))
        }
        #endif
    }

    /// One line on stderr, exit status 3, as every hlrender command fails.
    private static func fail(_ message: String) -> Never {
        say("hlrender: error: \(message)")
        exit(3)
    }

    /// One line on stderr.
    private static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
