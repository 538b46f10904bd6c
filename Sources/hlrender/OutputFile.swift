import Foundation

/// Writes a file atomically: a temporary file in the same folder, renamed into place, so a
/// failure never leaves a half-written output.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        // A device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: renaming over
        // it would replace the device node with a regular file.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw CLIFailure(message: "cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            handle.write(Data(bytes))
            try? handle.close()
            return
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIFailure(message: "cannot write '\(path)': folder '\(folder)' does not exist")
        }
        let temporary = folder + "/." + url.lastPathComponent + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CLIFailure(message: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n <= 0 {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw CLIFailure(message: "cannot write '\(path)': \(reason)")
            }
            written += n
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIFailure(message: "cannot write '\(path)': \(reason)")
        }
    }

    /// Fails early (before any work) when `path` cannot be written.
    static func checkWritable(_ path: String) throws {
        if path == "-" { return }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIFailure(message: "cannot write '\(path)': folder '\(folder)' does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw CLIFailure(message: "cannot write '\(path)': folder '\(folder)' is not writable")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw CLIFailure(message: "cannot write '\(path)': it is a folder")
        }
    }
}
