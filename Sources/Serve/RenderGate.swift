import Dispatch
import Synchronization

/// At most `limit` renders at once, at most `queue` more waiting; past that a request is
/// turned away at once (503) instead of queueing without end. Renders run on Dispatch's
/// threads, never on the server's event loops, and a render that outlives the timeout is
/// answered with an error while its slot stays taken until it really ends.
final class RenderGate: Sendable {
    struct Overloaded: Error {}
    struct TimedOut: Error {}

    private struct State {
        var running = 0
        /// Requests admitted to the queue (some may not have parked their continuation yet).
        var queued = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let limit: Int
    let queue: Int
    private let state = Mutex(State())

    init(limit: Int, queue: Int) {
        self.limit = max(1, limit)
        self.queue = max(0, queue)
    }

    /// Requests waiting for a slot.
    var depth: Int { state.withLock { $0.queued } }
    var running: Int { state.withLock { $0.running } }

    /// Runs `work` off the event loops when a slot is free; throws `Overloaded` when the queue
    /// is full, `TimedOut` after `timeout`.
    func run<T: Sendable>(timeout: Duration, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await acquire()
        return try await withCheckedThrowingContinuation { continuation in
            let answered = Once()
            let answer: @Sendable (Result<T, any Error>) -> Void = { result in
                if answered.claim() { continuation.resume(with: result) }
            }
            DispatchQueue.global().async {
                let result = Result { try work() }
                self.release()
                answer(result)
            }
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { answer(.failure(TimedOut())) }
        }
    }

    /// True for the first caller only: the render and the timer race to answer once.
    private final class Once: Sendable {
        private let done = Atomic<Bool>(false)
        func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
    }

    private func acquire() async throws {
        enum Decision { case go, wait, refuse }
        let decision: Decision = state.withLock { s in
            if s.running < limit {
                s.running += 1
                return .go
            }
            guard s.queued < queue else { return .refuse }
            s.queued += 1
            return .wait
        }
        switch decision {
        case .go: return
        case .refuse: throw Overloaded()
        case .wait:
            // The slot is handed over by `release` (running stays counted for us).
            await withCheckedContinuation { continuation in
                let handedOver: Bool = state.withLock { s in
                    if s.running < limit {
                        s.running += 1
                        s.queued -= 1
                        return true
                    }
                    s.waiting.append(continuation)
                    return false
                }
                if handedOver { continuation.resume() }
            }
        }
    }

    private func release() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { s in
            if s.waiting.isEmpty {
                s.running -= 1
                return nil
            }
            s.queued -= 1
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}
