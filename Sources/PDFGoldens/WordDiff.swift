/// Two pages' words compared in order: what was removed and added, as runs with a few words
/// of context, the way a reviewer reads a text change.
package enum WordDiff {
    /// One change: the words before it (context), the expected words removed and the actual
    /// words put in their place.
    package struct Change: Equatable, Sendable, CustomStringConvertible {
        package var before: [String]
        package var removed: [String]
        package var added: [String]

        package init(before: [String], removed: [String], added: [String]) {
            (self.before, self.removed, self.added) = (before, removed, added)
        }

        package var description: String {
            var parts: [String] = []
            if !before.isEmpty { parts.append("…" + before.joined(separator: " ")) }
            if !removed.isEmpty { parts.append("[-" + removed.joined(separator: " ") + "-]") }
            if !added.isEmpty { parts.append("{+" + added.joined(separator: " ") + "+}") }
            return parts.joined(separator: " ")
        }
    }

    /// The most words a side may have for a word-by-word table (the table grows with the
    /// product); past it, the common start and end are trimmed first, then one change is
    /// reported for the middle.
    static let maxTable = 4_000_000

    /// The changes from `expected` to `actual` (empty when the words are the same).
    package static func changes(_ expected: [String], _ actual: [String], context: Int = 3) -> [Change] {
        // Common start and end first: most pages change in one place.
        var start = 0
        while start < expected.count, start < actual.count, expected[start] == actual[start] { start += 1 }
        var end = 0
        while end < expected.count - start, end < actual.count - start,
              expected[expected.count - 1 - end] == actual[actual.count - 1 - end] { end += 1 }
        let a = Array(expected[start..<(expected.count - end)]), b = Array(actual[start..<(actual.count - end)])
        if a.isEmpty && b.isEmpty { return [] }
        let lead = Array(expected[max(0, start - context)..<start])
        if a.isEmpty || b.isEmpty || a.count * b.count > maxTable {
            return [Change(before: lead, removed: a, added: b)]
        }
        // Longest common subsequence, table from the end.
        let n = a.count, m = b.count
        var table = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i * (m + 1) + j] = a[i] == b[j] ? table[(i + 1) * (m + 1) + j + 1] + 1
                    : max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1])
            }
        }
        var changes: [Change] = []
        var current: Change?
        var kept = lead
        var i = 0, j = 0
        func flush() {
            if let change = current { changes.append(change) }
            current = nil
        }
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                flush()
                kept.append(a[i])
                i += 1; j += 1
            } else if j < m, i == n || table[i * (m + 1) + j + 1] >= table[(i + 1) * (m + 1) + j] {
                if current == nil { current = Change(before: Array(kept.suffix(context)), removed: [], added: []) }
                current!.added.append(b[j])
                j += 1
            } else {
                if current == nil { current = Change(before: Array(kept.suffix(context)), removed: [], added: []) }
                current!.removed.append(a[i])
                i += 1
            }
        }
        flush()
        return changes
    }
}
