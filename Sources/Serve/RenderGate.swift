import Dispatch
import Synchronization

/// At most `limit` renders at once, at most `queue` more waiting; past that a request is
/// turned away at once (503) instead of queueing without end. Each render slot is its own
/// serial queue (its own thread), so renders never run on the server's event loops, and the
/// timeout timer, on Dispatch's shared pool, still fires when every slot is busy. A render
/// that outlives the timeout is answered with an error while its slot stays taken until it
/// really ends.
final class RenderGate: Sendable {
    struct Overloaded: Error {}
    struct TimedOut: Error {}

    private struct State {
        var free: [Int]
        /// Requests admitted to the queue (some may not have parked their continuation yet).
        var queued = 0
        var waiting: [CheckedContinuation<Int, Never>] = []
    }

    let limit: Int
    let queue: Int
    private let slots: [DispatchQueue]
    private let state: Mutex<State>

    init(limit: Int, queue: Int) {
        self.limit = max(1, limit)
        self.queue = max(0, queue)
        slots = (0..<self.limit).map { DispatchQueue(label: "hlrender.render.\($0)") }
        state = Mutex(State(free: Array(0..<self.limit)))
    }

    /// Requests waiting for a slot.
    var depth: Int { state.withLock { $0.queued } }
    var running: Int { state.withLock { limit - $0.free.count } }

    /// Runs `work` on a free slot; throws `Overloaded` when the queue is full, `TimedOut`
    /// after `timeout`.
    func run<T: Sendable>(timeout: Duration, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let slot = try await acquire()
        return try await withCheckedThrowingContinuation { continuation in
            let answered = Once()
            let answer: @Sendable (Result<T, any Error>) -> Void = { result in
                if answered.claim() { continuation.resume(with: result) }
            }
            slots[slot].async {
                let result = Result { try work() }
                self.release(slot)
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

    private func acquire() async throws -> Int {
        enum Decision { case go(Int), wait, refuse }
        let decision: Decision = state.withLock { s in
            if let slot = s.free.popLast() { return .go(slot) }
            guard s.queued < queue else { return .refuse }
            s.queued += 1
            return .wait
        }
        switch decision {
        case let .go(slot): return slot
        case .refuse: throw Overloaded()
        case .wait:
            // The slot is handed over by `release`.
            return await withCheckedContinuation { continuation in
                let free: Int? = state.withLock { s in
                    if let slot = s.free.popLast() {
                        s.queued -= 1
                        return slot
                    }
                    s.waiting.append(continuation)
                    return nil
                }
                if let free { continuation.resume(returning: free) }
            }
        }
    }

    private func release(_ slot: Int) {
        let next: CheckedContinuation<Int, Never>? = state.withLock { s in
            if s.waiting.isEmpty {
                s.free.append(slot)
                return nil
            }
            s.queued -= 1
            return s.waiting.removeFirst()
        }
        next?.resume(returning: slot)
    }
}
