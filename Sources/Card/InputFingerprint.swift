import Render
import Support
import Typeset

extension Engine {
    /// What every card this engine renders depends on besides its own spec and
    /// files: the C libraries' versions, every font the library can choose from (by name and
    /// content: a font added to a folder can change fallback) and the hyphenation
    /// dictionaries (by name, size and time). `hash` gives a font file's content hash (nil:
    /// unreadable); an incremental golden suite keys its cards on the result.
    package func inputFingerprint(hash: (String) -> String?) -> String {
        var parts = LibraryVersions.all.map { "\($0.name) \($0.version)" }
        var seen = Set<String>()
        for face in world.library.listing() where seen.insert(face.file).inserted {
            let digest = world.library.digestOfFontGivenAsBytes(face.file) ?? hash(face.file)
            parts.append("font \(FontData.shownName(ofFile: face.file)) \(digest ?? "unreadable")")
        }
        parts += world.library.hyphenation.stamps
        return SHA256.hex(Array(parts.joined(separator: "\n").utf8))
    }
}
