import Synchronization

/// Asks long work to stop: set from another thread (a service's timeout, a client that went
/// away) and checked by the work between its stages (paragraphs, blocks, drawing, encoding),
/// so a render past its deadline frees its thread instead of running to the end.
public final class Cancellation: Sendable {
    /// Thrown by `check()` once the work was cancelled.
    public struct Cancelled: Error, CustomStringConvertible {
        public var description: String { "the render was cancelled" }
    }

    private let flag = Atomic<Bool>(false)
    /// Past it the work counts as cancelled at its next check, whether or not the caller's
    /// timer has said so yet (a timer thread runs late on a loaded machine: renders went on
    /// past their deadline and answered 200).
    public let deadline: ContinuousClock.Instant?

    public init(deadline: ContinuousClock.Instant? = nil) { self.deadline = deadline }

    public var isCancelled: Bool {
        flag.load(ordering: .acquiring) || deadline.map { ContinuousClock.now >= $0 } ?? false
    }

    public func cancel() { flag.store(true, ordering: .releasing) }

    /// Throws `Cancelled` once `cancel()` was called.
    public func check() throws {
        if isCancelled { throw Cancelled() }
    }
}

extension Optional where Wrapped == Cancellation {
    /// Checks the cancellation when there is one (most callers never cancel).
    public func check() throws {
        if let self { try self.check() }
    }
}
