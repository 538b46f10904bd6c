import Support

/// Signed template URLs (as imgproxy signs its own): with a key, a template GET is rendered,
/// and cached, only when its `sig` parameter is the HMAC-SHA256 of the path and the rest of
/// the query under that key. Only URLs the operator's own pages made get our domain's name
/// and cache; anyone else's text is refused before it is read. One URL per render: exactly one
/// `sig` pair, its value 64 lowercase hex digits (a second spelling of the same signature, or
/// a bare `sig` beside it, would be a new URL for the CDN to miss); an optional `exp` (Unix
/// seconds, signed with the rest) ends its validity.
enum URLSignature {
    static let parameter = "sig"
    static let expiry = "exp"

    /// Why a URL is refused, for the 403's one line.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case unsigned, malformed, mismatch, expired

        var description: String {
            switch self {
            case .unsigned: "this URL is not signed (sig=)"
            case .malformed: "a signed URL has exactly one sig=, 64 lowercase hex digits, and at most one exp= of Unix seconds"
            case .mismatch: "this URL was changed after signing (sig=)"
            case .expired: "this signed URL has expired (exp=)"
            }
        }
    }

    /// A query's pairs as sent (`name=value` or a bare `name`), empty ones kept.
    private static func pairs(_ query: String?) -> [(name: Substring, value: Substring?, text: Substring)] {
        (query ?? "").split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (parts[0], parts.count == 2 ? parts[1] : nil, pair)
        }
    }

    /// The signed text: the path, then `?` and the query exactly as sent with the `sig` pair
    /// taken out (the other pairs keep their order and encoding; `exp` is signed with them).
    static func message(path: String, query: String?) -> String {
        let rest = pairs(query).filter { $0.name != Substring(parameter) }.map(\.text).joined(separator: "&")
        return rest.isEmpty ? path : path + "?" + rest
    }

    static func signature(path: String, query: String?, key: [UInt8]) -> String {
        SHA256.hmacHex(key: key, Array(message(path: path, query: query).utf8))
    }

    /// Nil when the URL is signed by `key` and not expired at `now` (Unix seconds); the
    /// signature is compared in constant time, so timing tells nothing of it.
    static func check(path: String, query: String?, key: [UInt8], now: Int) -> Refusal? {
        let all = pairs(query)
        let signatures = all.filter { $0.name == Substring(parameter) }
        guard !signatures.isEmpty else { return .unsigned }
        guard signatures.count == 1, let given = signatures[0].value, given.utf8.count == 64,
              given.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return .malformed }
        let expiries = all.filter { $0.name == Substring(expiry) }
        var until: Int?
        if !expiries.isEmpty {
            guard expiries.count == 1, let text = expiries[0].value, text.utf8.count <= 12,
                  text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(text) else { return .malformed }
            until = seconds
        }
        let expected = Array(signature(path: path, query: query, key: key).utf8)
        guard zip(expected, given.utf8).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else { return .mismatch }
        if let until, now > until { return .expired }
        return nil
    }
}
