import Foundation

/// One conformance suite's count and its bar.
struct SuiteResult {
    var name: String
    var passed = 0
    var total = 0
    /// Cases left out of the count, by why (lines the pinned fonts cannot show, documented
    /// exceptions).
    var excluded: [String: Int] = [:]
    /// The share of `total` that must pass.
    var bar: Double
    /// Up to five failing cases, to look at.
    var examples: [String] = []

    mutating func record(_ ok: Bool, _ example: @autoclosure () -> String) {
        total += 1
        if ok { passed += 1 } else if examples.count < 5 { examples.append(example()) }
    }

    var share: Double { total == 0 ? 0 : Double(passed) / Double(total) }
    var meetsBar: Bool { total > 0 && share >= bar }

    var report: String {
        let percent = String(format: "%.3f", share * 100)
        var out = "\(name): \(passed) of \(total) pass (\(percent)%, bar \(String(format: "%g", bar * 100))%)\(meetsBar ? "" : "  BELOW THE BAR")"
        for (why, count) in excluded.sorted(by: { $0.key < $1.key }) { out += "\n    not counted: \(count) \(why)" }
        for example in examples { out += "\n    fails: \(example)" }
        return out
    }
}

/// Scalars from a conformance file's hex field ("0061 05D0").
func scalars(_ field: Substring) -> [Unicode.Scalar] {
    field.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
}

/// A file's data lines: comments and blank lines dropped.
func dataLines(_ path: String) throws -> [Substring] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n").map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
        .map { $0.trimmingCharacters(in: .whitespaces)[...] }.filter { !$0.isEmpty }
}
