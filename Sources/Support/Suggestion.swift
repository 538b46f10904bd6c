/// Levenshtein distance, for "did you mean" suggestions.
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// Up to one known name close to `name` (edit distance), for "did you mean": the one rule of
/// card keys, CLI flags and service fields. Names past 256 characters get none (comparing
/// would cost their length times every name's for nothing).
package func suggestion(for name: String, among names: [String]) -> String? {
    guard name.count <= 256 else { return nil }
    let scored = names.map { ($0, editDistance(name.lowercased(), $0)) }.filter { $0.1 <= max(2, name.count / 3) }
    return scored.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
}

/// "did you mean 'A', 'B'?": the one wording of suggested names (no names: empty text).
package func didYouMean(_ names: [String]) -> String {
    names.isEmpty ? "" : "did you mean " + names.map { "'\($0)'" }.joined(separator: ", ") + "?"
}
