import Glibc

/// What went wrong with a file, as a value: each front end words it in its own terms (the CLI
/// adds the flag that raises a limit; the service never shows a server path).
package struct FileError: Error, CustomStringConvertible, Sendable {
    package enum Problem: Error, Sendable, Equatable {
        /// The system's reason (strerror), for a failed open, read or write.
        case system(String)
        /// More bytes than the limit allows.
        case tooLarge(limit: Int)
        /// Not a regular file (a folder, a device, a FIFO) where one was required.
        case notAFile
        case folderMissing(String)
        case folderNotWritable(String)
        case isAFolder
    }

    package var operation: Operation
    /// What the file is to the caller ("text file", "golden"); nil for an output.
    package var what: String?
    /// The path as the caller gave it.
    package var path: String
    package var problem: Problem

    package enum Operation: Sendable { case read, write, makeFolder }

    package init(_ operation: Operation, _ what: String?, _ path: String, _ problem: Problem) {
        (self.operation, self.what, self.path, self.problem) = (operation, what, path, problem)
    }

    /// The reason alone ("more than 100 bytes", "No such file or directory").
    package var reason: String {
        switch problem {
        case let .system(reason): reason
        case let .tooLarge(limit): "more than \(limit) bytes"
        case .notAFile: "not a regular file"
        case let .folderMissing(folder): "folder '\(folder)' does not exist"
        case let .folderNotWritable(folder): "folder '\(folder)' is not writable"
        case .isAFolder: "it is a folder"
        }
    }

    /// "cannot read text file 'a.txt': ..." / "cannot write 'out.png': ...".
    package var description: String { "\(subject): \(reason)" }

    package var subject: String {
        let name = path == "-" ? (operation == .read ? "standard input" : "standard output") : "'\(path)'"
        switch operation {
        case .read: return "cannot read " + (what.map { path == "-" ? name : "\($0) \(name)" } ?? name)
        case .write: return "cannot write \(name)"
        case .makeFolder: return "cannot make folder \(name)"
        }
    }
}

/// The little POSIX I/O the CLI and the service need, with errno turned into readable reasons
/// (Foundation's ICU-backed part is not linked: it costs milliseconds at every start).
package enum Posix {
    package static func reason() -> String { String(cString: strerror(errno)) }

    /// The running program's own file (/proc/self/exe resolved), for a front end that spawns
    /// itself; nil when it cannot be read.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Everything readable from a file descriptor, refused past `limit` bytes (an endless
    /// source such as /dev/zero or `yes` must not run memory out). A read error is an error,
    /// never a silently shortened file.
    package static func readAll(_ fd: Int32, limit: Int) throws(FileError.Problem) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(reason())
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw .tooLarge(limit: limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Writes all bytes; false (errno set) on failure.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            written += n
        }
        return true
    }

    package enum Kind: Sendable { case missing, regular, folder, other }

    package static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// What tells one version of a file from another without reading it: device, inode, size,
    /// and the modification and status-change times to the nanosecond. A file rewritten in
    /// place with its old size and its old mtime put back (`touch -d`) still gets a new ctime,
    /// which no user can set. Nil when the path cannot be stat'ed.
    package static func identity(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):"
            + "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// "size:mtime" of a file: what a copy with its times kept, or a clone checked out at the
    /// same time, has too (no device, inode or change time); nil when it is gone.
    package static func stamp(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// A whole file, at most `limit` bytes; `-` is standard input. Anything but a regular file
    /// is refused before a byte is read (see `openRegular`).
    package static func readFile(_ path: String, as what: String, limit: Int) throws(FileError) -> [UInt8] {
        let fail = { (problem: FileError.Problem) in FileError(.read, what, path, problem) }
        if path == "-" {
            do { return try readAll(STDIN_FILENO, limit: limit) } catch { throw fail(error) }
        }
        let fd = try openRegular(path, as: what, limit: limit)
        defer { close(fd) }
        do { return try readAll(fd, limit: limit) } catch { throw fail(error) }
    }

    /// The one rule for opening a file hlrender reads (a text, a spec, a font, a picture, a
    /// golden, a template): opened without blocking, so a FIFO planted where a file was
    /// expected cannot hold the caller, then refused unless it is a regular file of at most
    /// `limit` bytes. The descriptor is blocking again when returned; the caller closes it.
    package static func openRegular(_ path: String, as what: String?, limit: Int = Int.max) throws(FileError) -> Int32 {
        let fail = { (problem: FileError.Problem) in FileError(.read, what, path, problem) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw fail(.system(reason())) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { let problem = FileError.Problem.system(reason()); close(fd); throw fail(problem) }
        guard info.st_mode & S_IFMT == S_IFREG else { close(fd); throw fail(info.st_mode & S_IFMT == S_IFDIR ? .isAFolder : .notAFile) }
        guard Int(info.st_size) <= limit else { close(fd); throw fail(.tooLarge(limit: limit)) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Whether `path` may be handed to a library that opens it by name (FreeType, Fontconfig,
    /// libhyphen): the same check as `openRegular`, nothing read.
    package static func checkRegular(_ path: String, as what: String?, limit: Int = Int.max) throws(FileError) {
        close(try openRegular(path, as: what, limit: limit))
    }

    /// The names in a folder (without "." and ".."), nil when it cannot be read.
    package static func entries(of folder: String) -> [String]? {
        var names: [String] = []
        guard eachEntry(of: folder, { name, _ in names.append(name) }) else { return nil }
        return names
    }

    /// Calls `body` with each name in a folder (without "." and "..") and what the entry is
    /// (a link is what its target is; `.missing` when it dangles), as the directory is read: a caller may stop early by throwing. False when the
    /// folder cannot be opened.
    @discardableResult
    package static func eachEntry<E: Error>(of folder: String, _ body: (String, Kind) throws(E) -> Void) throws(E) -> Bool {
        guard let dir = opendir(folder) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != "." && name != ".." else { continue }
            let kind: Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_REG): kind = .regular
            case Int32(DT_LNK), Int32(DT_UNKNOWN): kind = Posix.kind(folder + "/" + name)
            default: kind = .other
            }
            try body(name, kind)
        }
        return true
    }

    /// Creates a folder and its missing parents (mode 0777 less the umask).
    /// A folder the user named for output (a report's): made when missing, as `-o` writes into
    /// a folder that exists: its parent must exist (a typo is not a new tree of folders).
    package static func makeFolder(_ path: String) throws(FileError) {
        guard kind(path) != .folder else { return }
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let parent = trimmed.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let shown = parent.isEmpty ? (trimmed.hasPrefix("/") ? "/" : ".") : parent
        guard kind(shown) == .folder else { throw FileError(.makeFolder, nil, path, .folderMissing(shown)) }
        if mkdir(trimmed, 0o777) != 0 && errno != EEXIST { throw FileError(.makeFolder, nil, path, .system(reason())) }
        guard kind(trimmed) == .folder else { throw FileError(.makeFolder, nil, path, .system("a file is in the way")) }
    }

    package static func makeFolders(_ path: String) throws(FileError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o777) != 0 && errno != EEXIST { throw FileError(.makeFolder, nil, built, .system(reason())) }
        }
        guard kind(built) == .folder else { throw FileError(.makeFolder, nil, path, .system("a file is in the way")) }
    }

    package static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }
    package static var processID: Int32 { getpid() }

    /// The process's umask (read by setting it and putting it back: done once, at start-up).
    package static let umaskValue: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()
}
