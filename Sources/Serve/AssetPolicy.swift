import Glibc
import Support

/// The only files a request may reach: under the assets folder, by a relative path without
/// `..`, not a URL, and still inside once symlinks are resolved. Anything else is refused
/// before it is opened, with a message that names the spec's path, never the server's.
struct AssetPolicy: Sendable {
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// The assets folder, resolved (nil: requests may read no file at all).
    let root: String?

    init(folder: String?) throws {
        guard let folder else {
            root = nil
            return
        }
        guard let resolved = realpath(folder, nil) else { throw Refused(description: "assets folder '\(folder)' does not exist") }
        root = String(cString: resolved)
        free(resolved)
    }

    /// The folder relative spec paths are joined to (the card builder prefixes it).
    var folder: String { root ?? "/nonexistent-assets" }

    /// The file to open for `path` (as the card builder joined it), or a refusal.
    func resolve(_ path: String) throws -> String {
        guard let root else { throw Refused(description: "this server reads no files (it was started without an assets folder)") }
        guard path.hasPrefix(root + "/") else { throw Refused(description: "absolute paths are not allowed; use a path relative to the assets folder") }
        let relative = String(path.dropFirst(root.count + 1))
        if let colon = relative.firstIndex(of: ":"), relative[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }) {
            throw Refused(description: "URLs are not allowed; use a file in the assets folder")
        }
        let parts = relative.split(separator: "/")
        guard !parts.contains("..") else { throw Refused(description: "'..' is not allowed in a path") }
        guard let resolved = realpath(path, nil) else { throw Refused(description: "'\(relative)' is not in the assets folder") }
        defer { free(resolved) }
        let real = String(cString: resolved)
        guard real.hasPrefix(root + "/") else { throw Refused(description: "'\(relative)' leads outside the assets folder") }
        return real
    }

    /// Reads a file through `resolve`, bounded.
    func read(_ path: String, limit: Int) throws -> [UInt8] {
        let file = try resolve(path)
        do {
            // Regular files only, opened without blocking: a FIFO cannot hold a render slot.
            return try Posix.readFile(file, as: "asset", limit: limit)
        } catch {
            // The reason alone: the error's subject is the server's path.
            throw Refused(description: shown("'\(file)': \(error.reason)"))
        }
    }

    /// A message as a client may see it: paths inside the assets folder relative to it (any
    /// library's message may quote a file it opened), so no error shows where the server
    /// keeps its files.
    func shown(_ message: String) -> String {
        guard let root else { return message }
        return message.split(separator: root + "/", omittingEmptySubsequences: false).joined()
            .split(separator: root, omittingEmptySubsequences: false).joined(separator: ".")
    }
}
