import Synchronization

/// Values a command leaves for the process's exit to reclaim (as compilers skip freeing their
/// trees): a 10,000-card batch's rows and its golden suite are tens of thousands of small
/// objects, and releasing them one by one after the last output is written took a tenth of an
/// unchanged suite's run. Only for values alive until the command returns.
enum KeptUntilExit {
    private static let kept = Mutex<[any Sendable]>([])

    /// Holds `values` until the process ends.
    static func keep(_ values: any Sendable...) {
        kept.withLock { $0.append(contentsOf: values) }
    }
}
