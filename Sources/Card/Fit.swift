import Typeset

/// Auto-fit: the largest font size on a 0.25 px grid between `low` and `high` whose layout
/// fits, by bisection. Wrapping makes the line count jump, so `fits` need not be monotonic in
/// the size: after the bisection, every pair of evaluated sizes above the answer where the line
/// count goes *down* as the size goes up is searched again, so a larger fitting size hiding
/// behind such a jump is found.
enum Fit {
    static let step = 0.25

    /// Whether a paragraph of three words or more starts with a line of one word (texts
    /// written without spaces never count).
    static func hasLoneFirstWord(_ layout: Layout) -> Bool {
        let words = { (text: Substring) in text.split(whereSeparator: \.isWhitespace).count }
        for (i, line) in layout.lines.enumerated() where i == 0 || layout.lines[i - 1].paragraph != line.paragraph {
            guard words(Substring(line.text)) == 1 else { continue }
            let paragraph = layout.lines.filter { $0.paragraph == line.paragraph }.map(\.text).joined()
            if words(Substring(paragraph)) >= 3 { return true }
        }
        return false
    }

    /// What a fit makes at each size it probes (a layout, a steps block), made once per size:
    /// the search and what follows it ask for the same sizes again.
    final class Sizes<T> {
        private var made: [Double: T] = [:]
        private let make: (Double) throws -> T
        init(_ make: @escaping (Double) throws -> T) { self.make = make }

        subscript(size: Double) -> T {
            get throws {
                if let value = made[size] { return value }
                let value = try make(size)
                made[size] = value
                return value
            }
        }
    }

    struct Probe {
        var fits: Bool
        var lines: Int
    }

    static func largest(low: Double, high: Double, probe: (Double) throws -> Probe) throws -> Double? {
        guard high >= low else { return nil }
        let steps = Int(((high - low) / step).rounded(.down))
        // Sizes on the grid, from the top: k = 0 is `high`.
        let size = { (k: Int) in k == 0 ? high : high - Double(k) * step }
        var seen: [Int: Probe] = [:]
        func at(_ k: Int) throws -> Probe {
            if let p = seen[k] { return p }
            let p = try probe(size(k))
            seen[k] = p
            return p
        }
        if try at(0).fits { return high }
        guard try at(steps).fits else { return nil }
        // Invariant: lo does not fit, hi fits (k grows as the size shrinks).
        var lo = 0, hi = steps
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if try at(mid).fits { hi = mid } else { lo = mid }
        }
        var best = hi
        // Jumps the bisection stepped over: a bigger size with fewer lines than a smaller one.
        let evaluated = seen.keys.filter { $0 < best }.sorted(by: >)  // ascending sizes
        for (smaller, bigger) in zip(evaluated, evaluated.dropFirst()) {
            guard try at(bigger).lines < at(smaller).lines else { continue }
            // Search (bigger ... smaller) for the largest fitting size.
            for k in bigger..<smaller where k < best {
                if try at(k).fits { best = k; break }
            }
        }
        return size(best)
    }
}
