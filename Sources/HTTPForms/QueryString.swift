import Support

/// `application/x-www-form-urlencoded` query strings.
package enum QueryString {
    package struct BadQuery: Error {}

    /// A query string as form fields: '+' is a space, %XX bytes must make UTF-8.
    package static func fields(_ query: String?) throws -> [(String, String)] {
        guard let query, !query.isEmpty else { return [] }
        return try query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (try decode(parts[0]), parts.count > 1 ? try decode(parts[1]) : "")
        }
    }

    private static func decode(_ text: Substring) throws -> String {
        guard let bytes = PercentEncoding.decode(text, plusIsSpace: true), let string = String(validating: bytes, as: UTF8.self) else {
            throw BadQuery()
        }
        return string
    }
}
