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

    /// Where one change is: the expected words it removes and the actual words it puts in their
    /// place, as index ranges (one of them may be empty). Between hunks the words are the same.
    package struct Hunk: Equatable, Sendable {
        package var expected: Range<Int>
        package var actual: Range<Int>
    }

    /// The most words a side may have for a word-by-word table (the table grows with the
    /// product); past it, the common start and end are trimmed first, then one change is
    /// reported for the middle.
    static let maxTable = 4_000_000

    /// The changes from `expected` to `actual` (empty when the words are the same).
    package static func changes(_ expected: [String], _ actual: [String], context: Int = 3) -> [Change] {
        changes(expected, actual, hunks: aligned(expected, actual), context: context)
    }

    /// The changes `hunks` (`aligned`'s) make from `expected` to `actual`.
    package static func changes(_ expected: [String], _ actual: [String], hunks found: [Hunk], context: Int = 3) -> [Change] {
        found.enumerated().map { k, hunk in
            // Context: the same words before the change, back to the change before it at most.
            let floor = k > 0 ? found[k - 1].expected.upperBound : 0
            return Change(before: Array(expected[max(floor, hunk.expected.lowerBound - context)..<hunk.expected.lowerBound]),
                          removed: Array(expected[hunk.expected]), added: Array(actual[hunk.actual]))
        }
    }

    /// The hunks from `expected` to `actual`, in order; past `maxTable`, one hunk for all that
    /// lies between the common start and end.
    package static func aligned(_ expected: [String], _ actual: [String]) -> [Hunk] {
        hunks(expected, actual) ?? wholeMiddle(expected, actual)
    }

    /// The hunks from `expected` to `actual`, in order; nil when what differs between the
    /// common start and end is too long to align word by word (`maxTable`).
    package static func hunks(_ expected: [String], _ actual: [String]) -> [Hunk]? {
        // Common start and end first: most texts change in one place.
        let (start, end) = commonEnds(expected, actual)
        let a = expected[start..<(expected.count - end)], b = actual[start..<(actual.count - end)]
        if a.isEmpty && b.isEmpty { return [] }
        if a.isEmpty || b.isEmpty { return [Hunk(expected: a.indices, actual: b.indices)] }
        guard a.count * b.count <= maxTable else { return nil }
        // Longest common subsequence, table from the end.
        let n = a.count, m = b.count
        var table = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i * (m + 1) + j] = a[start + i] == b[start + j] ? table[(i + 1) * (m + 1) + j + 1] + 1
                    : max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1])
            }
        }
        var out: [Hunk] = []
        var current: Hunk?
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[start + i] == b[start + j] {
                if let hunk = current { out.append(hunk) }
                current = nil
                i += 1; j += 1
                continue
            }
            if current == nil { current = Hunk(expected: (start + i)..<(start + i), actual: (start + j)..<(start + j)) }
            if j < m, i == n || table[i * (m + 1) + j + 1] >= table[(i + 1) * (m + 1) + j] {
                j += 1
                current!.actual = current!.actual.lowerBound..<(start + j)
            } else {
                i += 1
                current!.expected = current!.expected.lowerBound..<(start + i)
            }
        }
        if let hunk = current { out.append(hunk) }
        return out
    }

    /// How many words the two sides share at their start and, after it, at their end.
    private static func commonEnds(_ expected: [String], _ actual: [String]) -> (start: Int, end: Int) {
        var start = 0
        while start < expected.count, start < actual.count, expected[start] == actual[start] { start += 1 }
        var end = 0
        while end < expected.count - start, end < actual.count - start,
              expected[expected.count - 1 - end] == actual[actual.count - 1 - end] { end += 1 }
        return (start, end)
    }

    /// One hunk for everything between the common start and end.
    private static func wholeMiddle(_ expected: [String], _ actual: [String]) -> [Hunk] {
        let (start, end) = commonEnds(expected, actual)
        return [Hunk(expected: start..<(expected.count - end), actual: start..<(actual.count - end))]
    }
}
