import Glibc

/// The little POSIX I/O the CLI needs, with errno turned into readable reasons (Foundation's
/// ICU-backed part is not linked: it costs milliseconds at every start).
enum Posix {
    static func reason() -> String { String(cString: strerror(errno)) }

    /// Everything readable from a file descriptor, refused past `limit` bytes (an endless
    /// source such as /dev/zero or `yes` must not run memory out).
    static func readAll(_ fd: Int32, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIFailure(message: reason())
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else {
                throw CLIFailure(message: "more than \(limit) bytes (raise --max-input-bytes to read it)")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Writes all bytes; false (errno set) on failure.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            written += n
        }
        return true
    }

    enum Kind { case missing, regular, folder, other }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// A whole file; the error names `what` and the path ("cannot read text file 'a.txt': ...").
    static func readFile(_ path: String, as what: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw CLIFailure(message: "cannot read \(what) '\(path)': \(reason())") }
        defer { close(fd) }
        do {
            return try readAll(fd, limit: limit)
        } catch let failure as CLIFailure {
            throw CLIFailure(message: "cannot read \(what) '\(path)': \(failure.message)")
        }
    }

    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }
    static var processID: Int32 { getpid() }

    /// The process's umask (read by setting it and putting it back: done once, at start-up).
    static let umaskValue: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()
}

/// `value` with `digits` significant digits, trailing zeros dropped (like printf's %g for the
/// magnitudes a report shows).
func significant(_ value: Double, digits: Int = 4) -> String {
    guard value != 0, value.isFinite else { return value == 0 ? "0" : String(value) }
    let exponent = Int(log10(abs(value)).rounded(.down))
    let decimals = max(0, digits - 1 - exponent)
    let scale = (0..<decimals).reduce(1.0) { r, _ in r * 10 }
    let scaled = Int((abs(value) * scale).rounded())
    var text = String(scaled)
    if decimals > 0 {
        if text.count <= decimals { text = String(repeating: "0", count: decimals - text.count + 1) + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return (value < 0 ? "-" : "") + text
}
