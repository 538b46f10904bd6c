import Glibc

/// A font folder checked before Fontconfig scans it: Fontconfig walks a folder whole, so one
/// that is not a folder of fonts (`/proc`, a home directory, a mount of millions of files)
/// would hold the run for minutes or for ever. The walk is bounded in entries and depth and
/// follows no links.
enum FontFolder {
    static let entryLimit = 20_000
    static let depthLimit = 8

    static func check(_ folder: String) throws {
        var info = stat()
        guard stat(folder, &info) == 0 else { throw TypesetError.badFontFolder(folder, "does not exist") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw TypesetError.badFontFolder(folder, "is not a folder") }
        var seen = 0
        var pending = [(folder, 0)]
        while let (path, depth) = pending.popLast() {
            guard let dir = opendir(path) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name != ".", name != ".." else { continue }
                seen += 1
                guard seen <= entryLimit else {
                    throw TypesetError.badFontFolder(folder, "holds more than \(entryLimit) entries; give a folder of fonts")
                }
                if entry.pointee.d_type == UInt8(DT_DIR) {
                    guard depth < depthLimit else {
                        throw TypesetError.badFontFolder(folder, "nests folders more than \(depthLimit) deep; give a folder of fonts")
                    }
                    pending.append((path + "/" + name, depth + 1))
                }
            }
        }
    }
}
