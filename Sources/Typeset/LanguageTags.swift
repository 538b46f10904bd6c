import CHarfBuzz
import Synchronization

/// BCP 47 language tags as HarfBuzz takes them. HarfBuzz interns every tag it is given for the
/// life of the process, so a service fed a new tag per request would grow without end: the
/// first `limit` distinct tags are interned whole; after that a tag keeps only its primary
/// language subtag (two or three letters, a bounded set), which is what OpenType language
/// systems mostly key on.
package enum LanguageTags {
    static let limit = 256
    /// The longest well-formed tag accepted (RFC 5646 4.4.1 sizes buffers for 35 characters
    /// for the tags that matter; extensions and private use can be longer, up to this).
    package static let maxLength = 64

    private struct Interned: @unchecked Sendable {
        var tags: [String: hb_language_t] = [:]
        var whole = 0
    }

    private static let interned = Mutex(Interned())

    /// Tags HarfBuzz holds for us (what the limit bounds).
    static var internedCount: Int { interned.withLock { $0.tags.count } }

    /// `tag` when it is well formed, else the one-line reason.
    package static func checked(_ tag: String) throws(TypesetError) -> String {
        guard isWellFormed(tag) else { throw .invalidLanguage(tag) }
        return tag
    }

    /// Letters, digits and hyphens in subtags of 1 to 8 characters ("_" is read as "-").
    package static func isWellFormed(_ tag: String) -> Bool {
        guard tag.utf8.count <= maxLength else { return false }
        if tag.isEmpty { return true }
        return tag.split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .allSatisfy { (1...8).contains($0.utf8.count) && $0.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || (0x30...0x39).contains($0) } }
    }

    /// HarfBuzz's language for `tag`, nil for an empty or malformed one.
    static func harfBuzz(_ tag: String) -> hb_language_t? {
        guard !tag.isEmpty, isWellFormed(tag) else { return nil }
        let key = tag.lowercased().replacingUnderscores
        return interned.withLock { state in
            if let known = state.tags[key] { return known }
            if state.whole < limit {
                state.whole += 1
                return intern(key, into: &state)
            }
            let primary = String(key.prefix { $0 != "-" })
            guard (2...3).contains(primary.utf8.count), primary.utf8.allSatisfy({ (0x61...0x7A).contains($0) }) else { return nil }
            return state.tags[primary] ?? intern(primary, into: &state)
        }
    }

    private static func intern(_ key: String, into state: inout Interned) -> hb_language_t? {
        let language = hb_language_from_string(key, -1)
        state.tags[key] = language
        return language
    }
}

private extension String {
    var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
