import Support

/// Which rows of a batch this run renders: those whose index (from 0) modulo `count` is
/// `index`, so N machines split one manifest with no coordination.
package struct Shard: Sendable, Equatable {
    package var index: Int
    package var count: Int

    /// `K/N` with 0 <= K < N.
    package init(parsing text: String) throws(OptionError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0.trimmed) }
        guard parts.count == 2, let k = parts[0], let n = parts[1], n > 0, n <= 1_000_000, (0..<n).contains(k) else {
            throw OptionError("'\(text)' is not K/N with 0 <= K < N")
        }
        (index, count) = (k, n)
    }

    /// The rows this shard renders, in order.
    package func select<T>(_ rows: [T]) -> [T] {
        rows.enumerated().filter { $0.offset % count == index }.map(\.element)
    }
}

extension BatchRun.Settings {
    /// A batch run's options, defined once: the CLI's `batch` flags read them (a service or
    /// a library caller sets the same fields).
    package static let options: [OptionDefinition<BatchRun.Settings>] = [
        OptionDefinition("jobs", "n", schema: "integer", "Cards rendered at once, 1 to 256 (default: the number of cores).") {
            $0.jobs = try $1.integer(in: 1...256)
        },
        OptionDefinition("shard", "K/N", schema: "string", "Render only rows whose index (from 0) modulo N is K.") {
            $0.shard = try Shard(parsing: try $1.string())
        },
        OptionDefinition("skip-existing", "bool", schema: "boolean", "Skip cards whose output file exists (finish a run that was stopped).") {
            $0.skipExisting = try $1.bool()
        },
        OptionDefinition("fail-fast", "bool", schema: "boolean", "Stop at the first card that fails.") {
            $0.failFast = try $1.bool()
        },
        OptionDefinition("scramble-seed", "n", schema: "integer",
                         "Seed for scrambled restricted blocks, so outputs repeat exactly: each row's seed is this plus its number.") {
            $0.scrambleSeed = try $1.seed()
        },
    ]
}
