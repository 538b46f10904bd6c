import Glibc
import Goldens
import PDFGoldens
import Render
import Support
import Typeset

/// The worker's side: `hlrender --decode-worker TASK --cpu-seconds N --memory-bytes M`
/// limits itself (RLIMIT_CPU, RLIMIT_AS, no core files), then reads the call's fields from
/// standard input, answers on standard output, and exits 0; a refusal is one line on standard
/// error and exit 3. Every task is a function the library also calls in process.
package enum WorkerMain {
    package static let flag = "--decode-worker"

    /// The tasks by name.
    static let tasks: [String: @Sendable (Fields) throws -> [UInt8]] = [
        SVGTasks.size: SVGTasks.size, SVGTasks.raster: SVGTasks.raster, SVGTasks.script: SVGTasks.script,
        PDFTasks.compare: { try PDFTasks.compare($0) }, PDFTasks.largestPage: PDFTasks.largestPage, WebFontTasks.sfnt: WebFontTasks.sfnt,
    ]

    /// What a task decodes, for messages.
    static func describe(_ task: String) -> String {
        task.hasPrefix("svg") ? "the SVG decoder (librsvg)" : task.hasPrefix("pdf") ? "the PDF renderer (poppler)"
            : task.hasPrefix("webfont") ? "the web font decoder (FreeType)" : "the decoder worker"
    }

    /// Runs the worker and exits when `arguments` (without the program's name) ask for it;
    /// returns otherwise.
    package static func runIfAsked(_ arguments: [String]) {
        guard arguments.first == flag else { return }
        guard arguments.count == 6, let task = tasks[arguments[1]], arguments[2] == "--cpu-seconds", arguments[4] == "--memory-bytes",
              let seconds = Int(arguments[3]), let memory = Int(arguments[5]), seconds > 0, memory > 0 else {
            fail("usage: \(flag) TASK --cpu-seconds N --memory-bytes M (tasks: \(tasks.keys.sorted().joined(separator: ", ")))")
        }
        limit(RLIMIT_CPU, soft: seconds, hard: seconds + 1)
        limit(RLIMIT_AS, soft: memory, hard: memory)
        limit(RLIMIT_CORE, soft: 0, hard: 0)
        let input: [UInt8]
        do {
            input = try Posix.readAll(STDIN_FILENO, limit: memory)
        } catch {
            fail("the call could not be read: \(error)")
        }
        guard let fields = Fields(decoding: input) else { fail("the call's framing is broken") }
        if let fonts = fields[SVGTasks.fontsField] { useFonts(fonts) }
        do {
            let output = try task(fields)
            guard Posix.writeAll(STDOUT_FILENO, output) else { exit(4) }
            exit(0)
        } catch {
            fail("\(error)")
        }
    }

    /// librsvg draws text through the system's shared Fontconfig, which reads its file from
    /// FONTCONFIG_FILE when it first starts: pointed here at the caller's fonts only (its
    /// folders, and the system's only when the run uses them). The file is unlinked as soon as
    /// it is written and read through this process's descriptor, so a worker that crashes or
    /// is killed leaves nothing in the temporary folder.
    private static func useFonts(_ file: [UInt8]) {
        var template = Array("/tmp/hlrender-fonts-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { fail("cannot write the worker's font configuration: \(Posix.reason())") }
        unlink(String(cString: template))
        guard Posix.writeAll(fd, file) else { fail("cannot write the worker's font configuration: \(Posix.reason())") }
        // Kept open for the worker's life: Fontconfig opens /proc/self/fd/N when it starts.
        setenv("FONTCONFIG_FILE", "/proc/self/fd/\(fd)", 1)
    }

    private static func limit(_ resource: __rlimit_resource, soft: Int, hard: Int) {
        var value = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
        guard setrlimit(__rlimit_resource_t(resource.rawValue), &value) == 0 else { fail("cannot limit the worker: \(Posix.reason())") }
    }

    private static func fail(_ message: String) -> Never {
        let line = Array((message.split(separator: "\n").first.map(String.init) ?? message).utf8) + [10]
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(3)
    }
}
