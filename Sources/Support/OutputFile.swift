import Glibc
import Synchronization

/// Writes a file atomically: a temporary file in the same folder, renamed into place, so a
/// failure never leaves a half-written output. The temporary file is created as mkstemp does
/// (random name, O_CREAT|O_EXCL: a planted symlink cannot redirect it), removed on SIGINT and
/// SIGTERM, named `.hlrender-XXXXXX.tmp` (short, so any legal output name works) and locked
/// (`flock`) by its writer while it exists: a later run removes only temporaries nobody holds,
/// which works across PID namespaces, where a process ID says nothing.
package enum OutputFile {
    /// Writes `bytes` to `path`. With `confinedTo`, the path must stay inside that folder
    /// without going through any symbolic link below it (a batch's output folder, where a
    /// planted link must not redirect a write), and its missing folders are made there.
    /// `pauseBeforeRename`: milliseconds the finished temporary file is held before it is
    /// renamed (0; the CLI's test hook, so a test can interrupt a run in that window).
    package static func write(_ bytes: [UInt8], to path: String, confinedTo root: String? = nil,
                              pauseBeforeRename: UInt32 = 0) throws(FileError) {
        do {
            try stream(to: path, confinedTo: root, pauseBeforeRename: pauseBeforeRename) { put in _ = bytes.withUnsafeBytes(put) }
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(.write, nil, path, .system("\(error)"))
        }
    }

    /// Writes what `produce` hands to its `put` as it comes (a long PDF page by page), with the
    /// same guarantees as `write`: into a locked temporary file renamed into place only when
    /// `produce` returns, removed when it throws (its error is rethrown) or a write fails.
    /// `put` returns false once a write has failed; the failure is thrown after `produce`.
    package static func stream(to path: String, confinedTo root: String? = nil, pauseBeforeRename: UInt32 = 0,
                              _ produce: (_ put: @escaping (UnsafeRawBufferPointer) -> Bool) throws -> Void) throws {
        let fail = { (problem: FileError.Problem) in FileError(.write, nil, path, problem) }
        // The first write failure, kept until `produce` returns (the writer may outlive a
        // single call: a PDF surface holds it).
        final class Failure { var reason: String? }
        let failed = Failure()
        func writer(_ fd: Int32) -> (UnsafeRawBufferPointer) -> Bool {
            { chunk in
                guard failed.reason == nil else { return false }
                if !Posix.writeAll(fd, chunk) { failed.reason = Posix.reason() }
                return failed.reason == nil
            }
        }
        // A failed write is the cause of whatever `produce` then throws (a PDF surface reports
        // "error while writing"): the system's reason, naming the output, is the message.
        func run(_ fd: Int32) throws {
            do {
                try produce(writer(fd))
            } catch {
                if let reason = failed.reason { throw fail(.system(reason)) }
                throw error
            }
            if let reason = failed.reason { throw fail(.system(reason)) }
        }
        if path == "-" {
            try run(STDOUT_FILENO)
            return
        }
        if let root {
            // Checked before any folder is made, so none is made through a link either.
            try checkConfined(path, below: root)
            let parent = split(path).0
            if Posix.kind(parent) != .folder { try Posix.makeFolders(parent) }
        }
        // Through a symlink to its target, as cp and editors do (replacing the link would
        // leave the target stale); never inside a confined folder. A link that ends at a device
        // or pipe (/dev/stdout is /proc/self/fd/1, whose link text "pipe:[N]" is no path) is
        // written through the link.
        let target = root == nil ? (Posix.kind(path) == .other ? path : resolvedTarget(path)) : path
        // A device or pipe the user named (/dev/null, /dev/stdout, a FIFO being read) is
        // written in place: renaming over it would replace the node with a regular file. It is
        // opened without blocking, so a FIFO nobody reads fails (ENXIO) instead of hanging. A
        // name from a row or a request (a confined folder) must be a regular file.
        if Posix.kind(target) == .other {
            guard root == nil else { throw fail(.notAFile) }
            let fd = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw fail(.system(errno == ENXIO ? "a FIFO that nothing reads" : Posix.reason())) }
            defer { close(fd) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            try run(fd)
            return
        }
        let folder = split(target).0
        try checkFolder(folder, path)
        removeStaleTemporaries(folder: folder)
        let (fd, temporary) = try lockedTemporary(in: folder, fail)
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.unregister(temporary) }
        // The lock lasts until the file is renamed: closed only then.
        defer { close(fd) }
        // mkstemp makes the file 0600; an output gets the mode an ordinary create would give
        // (or keeps the mode of the file it replaces).
        var info = stat()
        fchmod(fd, stat(target, &info) == 0 ? info.st_mode & 0o7777 : 0o666 & ~Posix.umaskValue)
        do {
            try run(fd)
        } catch {
            unlink(temporary)
            throw error
        }
        if pauseBeforeRename > 0 { usleep(pauseBeforeRename * 1000) }
        if rename(temporary, target) != 0 {
            let reason = Posix.reason()
            unlink(temporary)
            throw fail(.system(reason))
        }
    }

    /// A new temporary file in `folder`, created as mkstemp does and locked. A sweep by another
    /// run may take the lock between the two steps and remove the file: then it is made again.
    private static func lockedTemporary(in folder: String, _ fail: (FileError.Problem) -> FileError) throws(FileError) -> (Int32, String) {
        for _ in 0..<8 {
            var template = Array("\(folder)/.\(temporaryTag)-XXXXXX.tmp".utf8CString)
            let fd = mkstemps(&template, 4)
            guard fd >= 0 else { throw fail(.system(Posix.reason())) }
            var info = stat()
            if flock(fd, LOCK_EX) == 0, fstat(fd, &info) == 0, info.st_nlink > 0 { return (fd, String(cString: template)) }
            close(fd)
        }
        throw fail(.system("cannot keep a temporary file in the folder"))
    }

    /// Refuses a path below `root` that goes through a symbolic link (or leaves it by `..`).
    private static func checkConfined(_ path: String, below root: String) throws(FileError) {
        let fail = { (reason: String) in FileError(.write, nil, path, .system(reason)) }
        guard path.hasPrefix(root + "/") else { throw fail("not inside the output folder") }
        var current = root
        for part in path.dropFirst(root.count + 1).split(separator: "/") {
            guard part != ".." else { throw fail("'..' leaves the output folder") }
            current += "/" + part
            var info = stat()
            if lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                throw fail("'\(current.dropFirst(root.count + 1))' is a symbolic link; outputs stay inside the output folder")
            }
        }
    }

    /// Fails early (before any work) when `path` cannot be written.
    package static func checkWritable(_ path: String) throws(FileError) {
        let fail = { (problem: FileError.Problem) in FileError(.write, nil, path, problem) }
        if path == "-" || Posix.kind(path) == .other { return }
        let target = resolvedTarget(path)
        let (folder, _) = split(target)
        try checkFolder(folder, path)
        guard access(folder, W_OK) == 0 else {
            throw fail(.folderNotWritable(folder))
        }
        if Posix.kind(target) == .folder { throw fail(.isAFolder) }
    }

    package static let temporaryTag = "hlrender"

    /// The file a chain of symlinks ends at (the path itself when it is not a link); a dangling
    /// link gives the path it points to, which the write then creates.
    package static func resolvedTarget(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : split(current).0 + "/" + link
        }
        return current
    }

    /// Folders already swept by this process (a batch writes thousands of files into one).
    private static let swept = Mutex<Set<String>>([])

    /// Removes temporaries in `folder` that no writer holds (its lock went with its process),
    /// once per folder per process. Names of this scheme and of the earlier
    /// `.NAME.hlrender-PID-XXXXXX.tmp` one are both recognised; the lock alone decides.
    package static func removeStaleTemporaries(folder: String) {
        guard swept.withLock({ $0.insert(folder).inserted }) else { return }
        Posix.eachEntry(of: folder) { file, _ in
            guard isTemporaryName(file) else { return }
            let path = folder + "/" + file
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 {
                unlink(path)
            }
        }
    }

    /// Exactly the names `lockedTemporary` makes (`.hlrender-XXXXXX.tmp`) or the earlier scheme
    /// made (`.NAME.hlrender-PID-XXXXXX.tmp`), nothing that merely contains the tag: a user's
    /// `.notes.hlrender-draft.tmp` is not ours to delete.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let stem = name.dropFirst().dropLast(4)
        let alnum = { (c: Unicode.Scalar) in ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) }
        let random = { (s: Substring) in s.count == 6 && s.unicodeScalars.allSatisfy(alnum) }
        if stem.hasPrefix("\(temporaryTag)-") { return random(stem.dropFirst(temporaryTag.count + 1)) }
        // The earlier scheme: NAME.hlrender-PID-XXXXXX.
        let pieces = stem.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count >= 2, !pieces[0].isEmpty, let last = pieces.last else { return false }
        let parts = last.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == temporaryTag && !parts[1].isEmpty
            && parts[1].unicodeScalars.allSatisfy { ("0"..."9").contains($0) } && random(parts[2])
    }

    private static func checkFolder(_ folder: String, _ path: String) throws(FileError) {
        guard Posix.kind(folder) == .folder else { throw FileError(.write, nil, path, .folderMissing(folder)) }
    }

    /// Folder and file name of a path ("." for a bare name).
    package static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}

/// Temporary files being written, removed if SIGINT, SIGTERM or SIGHUP ends the process. The
/// handler may only make async-signal-safe calls, so paths live in fixed C buffers it reads
/// without locking (a slot is filled before it is marked used). The buffers start zeroed
/// (calloc), so writes work whether or not a front end installs the handlers.
package enum TemporaryFiles {
    private static let slots = 64, pathBytes = Int(PATH_MAX) + 1
    private nonisolated(unsafe) static let paths = calloc(slots, pathBytes)!.assumingMemoryBound(to: CChar.self)
    private nonisolated(unsafe) static let used = calloc(slots, MemoryLayout<sig_atomic_t>.stride)!.assumingMemoryBound(to: sig_atomic_t.self)
    private static let mutex = Mutex(())

    /// Installs the handlers; a process calls it once at start-up (a library never does: the
    /// signals are its host's). A signal the parent set to be ignored (nohup, a background
    /// job's SIGINT) stays ignored; a blocked one is unblocked, since the process now handles it.
    package static func installSignalHandlers() {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = Glibc.signal(number) { number in
                for slot in 0..<TemporaryFiles.slots where TemporaryFiles.used[slot] != 0 {
                    unlink(TemporaryFiles.paths + slot * TemporaryFiles.pathBytes)
                }
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            // SIG_IGN is the handler value 1 (function pointers are not Equatable in Swift).
            if let previous, unsafeBitCast(previous, to: Int.self) == 1 {
                Glibc.signal(number, SIG_IGN)
            } else {
                sigaddset(&unblock, number)
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Marks `path` for removal should a signal end the process.
    package static func register(_ path: String) {
        let bytes = Array(path.utf8CString)
        guard bytes.count <= pathBytes else { return }
        mutex.withLock { _ in
            guard let slot = (0..<slots).first(where: { used[$0] == 0 }) else { return }
            bytes.withUnsafeBufferPointer { (paths + slot * pathBytes).update(from: $0.baseAddress!, count: bytes.count) }
            used[slot] = 1
        }
    }

    /// `path` was renamed or removed: a signal leaves it alone.
    package static func unregister(_ path: String) {
        mutex.withLock { _ in
            for slot in 0..<slots where used[slot] != 0 && String(cString: paths + slot * pathBytes) == path {
                used[slot] = 0
            }
        }
    }
}
