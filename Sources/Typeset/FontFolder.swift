import Support

/// A font folder checked before Fontconfig scans it: Fontconfig walks a folder whole, so one
/// that is not a folder of fonts (`/proc`, a home directory, a mount of millions of files)
/// would hold the run for minutes or for ever. The walk is bounded in entries and depth and
/// follows no links.
enum FontFolder {
    static let entryLimit = 20_000
    static let depthLimit = 8

    static func check(_ folder: String) throws(TypesetError) {
        switch Posix.kind(folder) {
        case .folder: break
        case .missing: throw .badFontFolder(folder, "does not exist")
        default: throw .badFontFolder(folder, "is not a folder")
        }
        var seen = 0
        var pending = [(folder, 0)]
        while let (path, depth) = pending.popLast() {
            try Posix.eachEntry(of: path) { (name, kind) throws(TypesetError) in
                seen += 1
                guard seen <= entryLimit else {
                    throw .badFontFolder(folder, "holds more than \(entryLimit) entries; give a folder of fonts")
                }
                // Fontconfig opens every file it scans by name: a FIFO or a device would block
                // it for good, so a folder holding one is refused (the one opening rule).
                guard kind != .other else {
                    let inside = path == folder ? name : path.dropFirst(folder.count + 1) + "/" + name
                    throw .badFontFolder(folder, "holds '\(inside)', which is not a regular file")
                }
                guard kind == .folder else {
                    // Fontconfig's scan inflates a WOFF file whole: its declared sizes first.
                    let lower = name.lowercased()
                    if lower.hasSuffix(".woff") || lower.hasSuffix(".woff2"), let why = WebFont.refusal(file: path + "/" + name) {
                        throw .damagedFont(path + "/" + name, why)
                    }
                    return
                }
                guard depth < depthLimit else {
                    throw .badFontFolder(folder, "nests folders more than \(depthLimit) deep; give a folder of fonts")
                }
                pending.append((path + "/" + name, depth + 1))
            }
        }
    }
}
