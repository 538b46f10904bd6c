import Render
import Support
import Typeset

extension CardResources {
    /// What every card rendered with these resources depends on besides its own spec and
    /// files: the C libraries' versions, every font the library can choose from (by name and
    /// content: a font added to a folder can change fallback) and the hyphenation
    /// dictionaries (by name, size and time). `hash` gives a font file's content hash (nil:
    /// unreadable); an incremental golden suite keys its cards on the result.
    package func inputFingerprint(hash: (String) -> String?) -> String {
        var parts = LibraryVersions.all.map { "\($0.name) \($0.version)" }
        var seen = Set<String>()
        for face in library.listing() where seen.insert(face.file).inserted {
            parts.append("font \(face.file.split(separator: "/").last ?? "") \(hash(face.file) ?? "unreadable")")
        }
        for folder in library.hyphenation.folders {
            for name in (Posix.entries(of: folder) ?? []).sorted() {
                parts.append("hyphenation \(name) \(Posix.stamp(folder + "/" + name) ?? "gone")")
            }
        }
        return SHA256.hex(Array(parts.joined(separator: "\n").utf8))
    }
}
