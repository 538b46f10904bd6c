import CHyphen
import Support
import Synchronization

/// Dictionary hyphenation through libhyphen and the dictionaries in the folders its owner
/// names (Debian's `hyphen-*` packages put them in /usr/share/hyphen). Each font library owns
/// one: two libraries in one process share nothing. Dictionaries are loaded once and only
/// read afterwards, from any thread.
package final class Hyphenation: Sendable {
    final class Dictionary: @unchecked Sendable {
        let handle: OpaquePointer
        init(_ handle: OpaquePointer) { self.handle = handle }
        deinit { hl_hyphen_free(handle) }
    }

    /// Dictionaries by file (as many as are installed), and which file a language uses
    /// (bounded: a request may name any tag; what is let go is looked up again).
    private struct Loaded: @unchecked Sendable {
        var files: [String: Dictionary] = [:]
        var choices = BoundedCache<String, String?>(limit: 128)
    }

    private let loaded = Mutex(Loaded())
    /// Where dictionaries are looked for, in order.
    package let folders: [String]

    /// Every dictionary file in the folders, by name, size and time (one line each, sorted in
    /// each folder): what an incremental suite keys its cards on, since any of them may
    /// change where a line breaks.
    package var stamps: [String] {
        folders.flatMap { folder in
            (Posix.entries(of: folder) ?? []).sorted().map { "hyphenation \($0) \(Posix.stamp(folder + "/" + $0) ?? "gone")" }
        }
    }

    /// Debian's folder of `hyphen-*` dictionaries.
    package static let systemFolders = ["/usr/share/hyphen"]

    /// Dictionaries from `folders`, searched in order.
    package init(folders: [String] = Hyphenation.systemFolders) { self.folders = folders }

    /// The dictionary for a BCP 47 tag ("en-US", "de", "ru"), or nil when none is installed.
    func dictionary(for language: String) -> Dictionary? {
        guard LanguageTags.isWellFormed(language) else { return nil }
        let parts = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = parts.first?.lowercased(), !first.isEmpty else { return nil }
        let region = parts.count > 1 ? parts[parts.count - 1].uppercased() : nil
        var names = region.map { ["hyph_\(first)_\($0).dic"] } ?? []
        names.append("hyph_\(first).dic")
        // A bare language falls back to any of its regional dictionaries (en -> en_US).
        let key = names[0]
        return loaded.withLock { state in
            if let choice = state.choices[key] { return choice.flatMap { state.files[$0] } }
            var found: String?
            search: for folder in folders {
                var candidates = names
                if let files = Posix.entries(of: folder) {
                    candidates += files.filter { $0.hasPrefix("hyph_\(first)_") && $0.hasSuffix(".dic") }.sorted()
                }
                for name in candidates {
                    let path = folder + "/" + name
                    if state.files[path] != nil {
                        found = path
                        break search
                    }
                    if let handle = hl_hyphen_load(path) {
                        state.files[path] = Dictionary(handle)
                        found = path
                        break search
                    }
                }
            }
            state.choices.insert(found, for: key)
            return found.flatMap { state.files[$0] }
        }
    }

    /// Whether `language` has a dictionary here.
    package func available(_ language: String) -> Bool { dictionary(for: language) != nil }

    /// Indices of the characters of `word` after which it may be hyphenated.
    static func points(_ word: [Unicode.Scalar], dictionary: Dictionary, left: Int, right: Int) -> [Int] {
        guard word.count >= left + right else { return [] }
        let lower = String(String.UnicodeScalarView(word)).lowercased()
        guard lower.unicodeScalars.count == word.count else { return [] }  // case mapping changed the length
        var points = [UInt8](repeating: 0, count: word.count)
        let status = lower.withCString { hl_hyphen_points(dictionary.handle, $0, Int32(lower.utf8.count), Int32(word.count),
                                                          Int32(left), Int32(right), &points) }
        guard status == 0 else { return [] }
        return points.indices.filter { points[$0] != 0 }
    }
}
