/// The URI schemes a run lets into its links: http, https and mailto (and `#name` inside the
/// document) unless whoever runs hlrender widens them with `--link-schemes`. A trust decision
/// of the operator, so it is a flag of the command and of the service, never a card key, a
/// query field or a row's column: a request cannot widen its own links.
package struct LinkSchemes: Sendable, Equatable {
    /// The schemes a link may use when nobody widened them. `javascript:`, `file:`, `data:` and
    /// the rest run code or reach the reader's machine in some viewers.
    package static let defaults: Set<String> = ["http", "https", "mailto"]

    /// Schemes no flag allows: a PDF viewer that follows them runs script.
    package static let neverAllowed: Set<String> = ["javascript", "vbscript"]

    /// The allowed schemes, lowercased.
    package private(set) var allowed: Set<String>

    /// The defaults, and `extra` besides.
    package init(adding extra: Set<String> = []) { allowed = Self.defaults.union(extra) }

    /// The `link-schemes` row, for what reads it alone.
    package static let linkSchemesRow = OptionDefinition<LinkSchemes>("link-schemes", "a,b", schema: "string|array",
        "Also allow these URI schemes in links, e.g. tel,ftp (default: http, https, mailto and #name only; javascript and vbscript never).",
        repeatable: true) {
        for item in try $1.list() {
            let name = try item.string().trimmed.lowercased()
            guard !name.isEmpty, scheme(of: name + ":") == name else {
                throw OptionError("'\(name)' is not a URI scheme (a letter, then letters, digits, '+', '-' or '.')")
            }
            guard !neverAllowed.contains(name) else { throw OptionError("'\(name):' runs script in a viewer and is never allowed") }
            $0.allowed.insert(name)
        }
    }

    package static let options: [OptionDefinition<LinkSchemes>] = [linkSchemesRow]

    /// RFC 3986's scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` before the first `:`),
    /// lowercased; nil when there is none.
    package static func scheme(of address: String) -> String? {
        guard let colon = address.firstIndex(of: ":") else { return nil }
        let scheme = address[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return scheme.lowercased()
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
