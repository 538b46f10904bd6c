import Glibc
import Support

/// What the two front ends (`hlrender`, `hlrender-serve`) read from the process and hand to the
/// library as values: where the pinned fonts are, the cache, temporary and hyphenation folders,
/// test hooks. The library reads none of these itself.
package enum Host {
    /// A folder that may hold the pinned fonts, and why it is looked at.
    package struct FontPlace: Sendable, Equatable {
        /// The folder.
        package var path: String
        /// Where it comes from, for the error when no place has fonts.
        package var origin: String
    }

    /// Where the pinned fonts are looked for, in order: beside the real executable
    /// (`../share/hlrender/fonts`, the layout `make install` makes), then `HLRENDER_FONT_DIR`
    /// (colon-separated), then the source checkout the binary was built in (`.build/...`).
    package static func fontPlaces() -> [FontPlace] {
        var places: [FontPlace] = []
        let executable = Posix.executablePath()
        if let executable {
            let bin = OutputFile.split(executable).0
            places.append(FontPlace(path: normalised(bin + "/../share/hlrender/fonts"), origin: "beside \(executable)"))
        }
        if let variable = variable("HLRENDER_FONT_DIR") {
            for part in variable.split(separator: ":") where !part.isEmpty {
                places.append(FontPlace(path: String(part), origin: "HLRENDER_FONT_DIR"))
            }
        }
        if let executable, let checkout = checkout(containing: executable) {
            places.append(FontPlace(path: checkout + "/fonts", origin: "the checkout it was built in"))
        }
        return places
    }

    /// The pinned font folders to use: the first place that is a folder (every part of
    /// `HLRENDER_FONT_DIR` when that is the place). Throws naming every place looked at.
    package static func pinnedFontDirectories() throws(HostError) -> [String] {
        let places = fontPlaces()
        // A folder that is there but holds no font file is passed over and named (an empty
        // pinned folder gave "unknown font family 'Noto Sans'").
        guard let first = places.first(where: { Posix.kind($0.path) == .folder && holdsFonts($0.path) }) else {
            let looked = places.map { place in
                "\(place.path) (\(place.origin)\(Posix.kind(place.path) == .folder ? ": holds no font files" : ""))"
            }.joined(separator: ", ")
            throw HostError(message: "no pinned fonts found; looked in \(looked.isEmpty ? "nowhere" : looked) "
                + "(install them in ../share/hlrender/fonts beside the binary, or set HLRENDER_FONT_DIR)")
        }
        if first.origin == "HLRENDER_FONT_DIR" {
            return places.filter { $0.origin == first.origin }.map(\.path)
        }
        return [first.path]
    }

    /// Whether `folder` holds a font file (by its name's ending).
    private static func holdsFonts(_ folder: String) -> Bool {
        (Posix.entries(of: folder) ?? []).contains(where: isFontName)
    }

    private static func isFontName(_ name: String) -> Bool {
        [".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2"].contains { name.lowercased().hasSuffix($0) }
    }

    /// Font files in `folders` that are links to nothing, each with where it points. The
    /// release tarball's emoji font links to the byte-identical file of Debian's
    /// fonts-noto-color-emoji (its RUNTIME-PACKAGES names it); without that package, emoji
    /// would fall back silently, so the front ends say so.
    package static func danglingFontLinks(in folders: [String]) -> [(path: String, target: String)] {
        folders.flatMap { folder in
            (Posix.entries(of: folder) ?? []).filter(isFontName).sorted().compactMap { name -> (path: String, target: String)? in
                let path = folder + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, Posix.kind(path) == .missing else { return nil }
                var buffer = [CChar](repeating: 0, count: 4096)
                let n = readlink(path, &buffer, buffer.count - 1)
                return (path, n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?")
            }
        }
    }

    /// The warning for each of `danglingFontLinks(in:)`, one line each.
    package static func danglingFontWarnings(in folders: [String]) -> [String] {
        danglingFontLinks(in: folders).map { link in
            "pinned font '\(link.path)' links to '\(link.target)', which is not there: its characters fall back to other fonts "
                + "(install the package that holds it: the release's RUNTIME-PACKAGES names it)"
        }
    }

    /// Fontconfig's cache for the pinned folders: `$XDG_CACHE_HOME/hlrender`, else
    /// `$HOME/.cache/hlrender`, else none.
    package static func cacheDirectory() -> String? {
        if let xdg = variable("XDG_CACHE_HOME") { return xdg + "/hlrender" }
        if let home = variable("HOME") { return home + "/.cache/hlrender" }
        return nil
    }

    /// `$TMPDIR`, else /tmp.
    package static func temporaryDirectory() -> String { variable("TMPDIR") ?? "/tmp" }

    /// The first executable file called `name` in `$PATH`'s folders (else /usr/bin and /bin).
    package static func executable(named name: String) -> String? {
        for folder in (variable("PATH") ?? "/usr/bin:/bin").split(separator: ":") where folder.hasPrefix("/") {
            let path = "\(folder)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// A new private folder (mode 0700) in the temporary folder, for files a tool writes.
    package static func makeTemporaryFolder() throws(HostError) -> String {
        var template = Array((temporaryDirectory() + "/hlrender-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw HostError(message: "cannot make a folder in \(temporaryDirectory()): \(String(cString: strerror(errno)))") }
        return String(cString: made)
    }

    /// `HLRENDER_HYPHEN_DIR`, else Debian's /usr/share/hyphen.
    package static func hyphenationFolders() -> [String] {
        variable("HLRENDER_HYPHEN_DIR").map { [$0] } ?? ["/usr/share/hyphen"]
    }

    /// Test hook: `HLRENDER_TEST_WRITE_PAUSE_MS` holds each finished output this long before
    /// it is renamed into place.
    package static func writePauseMilliseconds() -> UInt32 {
        variable("HLRENDER_TEST_WRITE_PAUSE_MS").flatMap { UInt32($0) } ?? 0
    }

    /// A non-empty environment variable.
    package static func variable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// The folder above `executable` holding Package.swift and fonts/ (a build in `.build/`),
    /// at most eight levels up.
    static func checkout(containing executable: String) -> String? {
        var folder = OutputFile.split(executable).0
        for _ in 0..<8 {
            if Posix.kind(folder + "/Package.swift") == .regular, Posix.kind(folder + "/fonts") == .folder { return folder }
            let parent = OutputFile.split(folder).0
            if parent == folder { return nil }
            folder = parent
        }
        return nil
    }

    /// `a/b/../c` as `a/c` (the path printed in errors reads as a place).
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}

/// What the process could not find.
package struct HostError: Error, CustomStringConvertible {
    /// One line saying what and where.
    package var message: String
    /// The same line.
    package var description: String { message }
}
