import Synchronization

/// Asks long work to stop: set from another thread (a service's timeout, a client that went
/// away) and checked by the work between its stages (paragraphs, blocks, drawing, encoding),
/// so a render past its deadline frees its thread instead of running to the end.
package final class Cancellation: Sendable {
    /// Thrown by `check()` once the work was cancelled.
    package struct Cancelled: Error, CustomStringConvertible {
        package var description: String { "the render was cancelled" }
    }

    private let flag = Atomic<Bool>(false)
    /// Past it the work counts as cancelled at its next check, whether or not the caller's
    /// timer has said so yet (a timer thread runs late on a loaded machine: renders went on
    /// past their deadline and answered 200).
    package let deadline: ContinuousClock.Instant?

    package init(deadline: ContinuousClock.Instant? = nil) { self.deadline = deadline }

    package var isCancelled: Bool {
        flag.load(ordering: .acquiring) || deadline.map { ContinuousClock.now >= $0 } ?? false
    }

    package func cancel() { flag.store(true, ordering: .releasing) }

    /// Throws `Cancelled` once `cancel()` was called.
    package func check() throws {
        if isCancelled { throw Cancelled() }
    }
}

extension Optional where Wrapped == Cancellation {
    /// Checks the cancellation when there is one (most callers never cancel).
    package func check() throws {
        if let self { try self.check() }
    }
}
