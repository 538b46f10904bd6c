import Glibc
import Support
import Typeset

/// A long text's laid-out lines, chunk by chunk, in a temporary file between the measuring
/// pass and the drawing pass: the text is laid out once and memory still follows a page (the
/// lines of 2,000 A4 pages are ~80 MB, in the file system's cache, not in the process). The file
/// is unlinked as soon as it is made, so nothing is left behind however the process ends.
/// Reads (positional) may come from any thread.
final class LineSpool: @unchecked Sendable {
    private let fd: Int32
    private var end = 0
    /// A write failed part-way: the file's end is no longer known, so nothing more is put.
    private var broken = false
    private var places: [Int: (offset: Int, length: Int)] = [:]
    private let lock = Lock()

    /// A spool in `folder`; nil when no temporary file can be made there (the chunks are then
    /// laid out again when drawn, as before).
    init?(folder: String) {
        var template = Array((folder + "/.hlrender-lines-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends chunk `index`'s lines, as `LineCodec.encode` made them (on the thread that laid
    /// the chunk out). Appends come from one thread; a refused one (a full disk) leaves the
    /// chunk out (`has` says so) and stops the spool.
    func put(_ index: Int, _ bytes: [UInt8]) {
        let offset: Int? = lock.withLock { broken ? nil : end }
        guard let offset else { return }
        let written = Posix.writeAll(fd, bytes)
        lock.withLock {
            if written {
                end = offset + bytes.count
                places[index] = (offset, bytes.count)
            } else {
                broken = true
            }
        }
    }

    func has(_ index: Int) -> Bool { lock.withLock { places[index] != nil } }

    /// Chunk `index`'s lines as they were put.
    func lines(_ index: Int) throws -> [Line] {
        guard let place = lock.withLock({ places[index] }) else { throw SpoolError() }
        var bytes = [UInt8](repeating: 0, count: place.length)
        var read = 0
        try bytes.withUnsafeMutableBytes { raw in
            while read < raw.count {
                let n = pread(fd, raw.baseAddress! + read, raw.count - read, off_t(place.offset + read))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw SpoolError() }
                read += n
            }
        }
        do { return try LineCodec.decode(bytes) } catch { throw SpoolError() }
    }

    struct SpoolError: Error, CustomStringConvertible {
        var description: String { "the temporary file of laid-out lines could not be read back" }
    }
}
