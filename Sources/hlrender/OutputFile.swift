import Glibc

/// Writes a file atomically: a temporary file in the same folder, renamed into place, so a
/// failure never leaves a half-written output.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            guard Posix.writeAll(STDOUT_FILENO, bytes) else { throw CLIFailure(message: "cannot write to standard output: \(Posix.reason())") }
            return
        }
        // A device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: renaming over
        // it would replace the device node with a regular file.
        if Posix.kind(path) == .other {
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { throw CLIFailure(message: "cannot write '\(path)': \(Posix.reason())") }
            defer { close(fd) }
            guard Posix.writeAll(fd, bytes) else { throw CLIFailure(message: "cannot write '\(path)': \(Posix.reason())") }
            return
        }
        let (folder, name) = split(path)
        try checkFolder(folder, path)
        let temporary = folder + "/." + name + ".\(Posix.processID).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CLIFailure(message: "cannot write '\(path)': \(Posix.reason())") }
        let written = Posix.writeAll(fd, bytes)
        let reason = Posix.reason()
        close(fd)
        guard written else {
            unlink(temporary)
            throw CLIFailure(message: "cannot write '\(path)': \(reason)")
        }
        if rename(temporary, path) != 0 {
            let reason = Posix.reason()
            unlink(temporary)
            throw CLIFailure(message: "cannot write '\(path)': \(reason)")
        }
    }

    /// Fails early (before any work) when `path` cannot be written.
    static func checkWritable(_ path: String) throws {
        if path == "-" || Posix.kind(path) == .other { return }
        let (folder, _) = split(path)
        try checkFolder(folder, path)
        guard access(folder, W_OK) == 0 else {
            throw CLIFailure(message: "cannot write '\(path)': folder '\(folder)' is not writable")
        }
        if Posix.kind(path) == .folder { throw CLIFailure(message: "cannot write '\(path)': it is a folder") }
    }

    private static func checkFolder(_ folder: String, _ path: String) throws {
        guard Posix.kind(folder) == .folder else {
            throw CLIFailure(message: "cannot write '\(path)': folder '\(folder)' does not exist")
        }
    }

    /// Folder and file name of a path ("." for a bare name).
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
