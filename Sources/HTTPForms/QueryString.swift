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
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { throw BadQuery() }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            default: bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else { throw BadQuery() }
        return string
    }
}
