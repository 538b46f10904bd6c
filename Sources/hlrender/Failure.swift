import Flags
import Batch
import Card
import Pages
import Glibc
import Render
import Typeset
import Support

/// Exit codes shared by every subcommand (documented in --help and the README).
enum ExitStatus {
    static let success: Int32 = 0
    static let differ: Int32 = 1
    static let sizesDiffer: Int32 = 2
    static let badInput: Int32 = 3
}

/// An error that already knows its one-line message and exit code.
struct CLIFailure: Error, CustomStringConvertible {
    var description: String { message }
    var message: String
    var code: Int32 = ExitStatus.badInput
}

/// A one-line warning on stderr; the run goes on.
func warn(_ message: String) {
    Posix.writeAll(STDERR_FILENO, Array("hlrender: warning: \(message)\n".utf8))
}

/// Says so when the typesetter dropped combining marks over its per-base limit.
func warnAboutDroppedMarks(count dropped: Int) {
    if dropped > 0 {
        warn("dropped \(dropped) combining marks beyond \(MarkLimit.marksPerBase) on one base character (UAX #15 stream-safe limit)")
    }
}

func fail(_ message: String, code: Int32) -> Never {
    Posix.writeAll(STDERR_FILENO, Array("hlrender: error: \(message)\n".utf8))
    exit(code)
}

/// One line for any error: each type describes itself.
func describe(_ error: Error) -> String {
    switch error {
    case let error as CLIFailure: return error.message
    case let error as FileError:
        // The library states the limit; the CLI names the flag that raises it.
        guard case .tooLarge = error.problem, error.operation == .read else { return error.description }
        return error.description + " (raise --max-input-bytes to read it)"
    case let error as TypesetError: return error.description
    case let error as RenderError:
        switch error {
        case .canvasTooLarge, .surfaceTooLarge: return error.description + " (see --max-pixels)"
        case let .sideTooLong(_, _, _, format) where format != .pdf: return error.description + "; lower --size, --scale or --width"
        default: return error.description
        }
    case let error as ValueError: return error.description
    case let error as OptionError: return error.message
    case let error as BatchError: return error.description
    case let error as PageError: return error.option.map { "--\($0): \(error.message)" } ?? error.message
    case let error as FlagError: return error.description
    default: return String(describing: error)
    }
}
