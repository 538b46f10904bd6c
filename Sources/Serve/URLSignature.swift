import Support

/// Signed template URLs (as imgproxy signs its own): with a key, a template GET is rendered,
/// and cached, only when its `sig` parameter is the HMAC-SHA256 of the path and the rest of
/// the query under that key. Only URLs the operator's own pages made get our domain's name
/// and cache; anyone else's text is refused before it is read.
enum URLSignature {
    static let parameter = "sig"

    /// The signed text: the path, then `?` and the query exactly as sent with every `sig=`
    /// pair taken out (the other pairs keep their order and encoding).
    static func message(path: String, query: String?) -> String {
        let rest = (query ?? "").split(separator: "&", omittingEmptySubsequences: false)
            .filter { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first != Substring(parameter) }
            .joined(separator: "&")
        return rest.isEmpty ? path : path + "?" + rest
    }

    static func signature(path: String, query: String?, key: [UInt8]) -> String {
        SHA256.hmacHex(key: key, Array(message(path: path, query: query).utf8))
    }

    /// Exactly one `sig`, in hex (either case), equal to the signature (compared in constant
    /// time, so timing tells nothing of it).
    static func verify(path: String, query: String?, key: [UInt8]) -> Bool {
        let given = (query ?? "").split(separator: "&").compactMap { pair -> Substring? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0] == Substring(parameter) ? parts[1] : nil
        }
        guard given.count == 1 else { return false }
        let expected = Array(signature(path: path, query: query, key: key).utf8), actual = Array(given[0].lowercased().utf8)
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
