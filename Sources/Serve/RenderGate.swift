import Dispatch
import Support
import Synchronization

/// At most `limit` renders at once, at most `queue` more waiting; past that a request is
/// turned away at once (503) instead of queueing without end. Each render slot is its own
/// serial queue (its own thread), so renders never run on the server's event loops, and the
/// deadline timers, on Dispatch's shared pool, still fire when every slot is busy.
///
/// A job's deadline covers its wait and its render: a job still queued at its deadline leaves
/// the queue; a render past it is answered at once and cancelled (the render stops at its next
/// check, between paragraphs, blocks, drawing and encoding), and its slot counts as stuck until
/// the render really returns. A job whose client went away is abandoned the same way.
package final class RenderGate: Sendable {
    struct Overloaded: Error {}
    struct TimedOut: Error {
        /// Still waiting for a slot at the deadline (no render started).
        var queued: Bool
    }
    struct Abandoned: Error {}

    /// One request's render: its cancellation, and its share of the memory budget (given back
    /// when the render really ends, not when the request is answered).
    final class Job: Sendable {
        let cancellation: Cancellation
        let memory: MemoryBudget.Lease?
        fileprivate let id: UInt64
        /// A large request (see `RenderGate`): it never takes the last free slot.
        let heavy: Bool
        /// The cancellation's own (a job's always has one).
        var deadline: ContinuousClock.Instant { cancellation.deadline! }

        fileprivate init(id: UInt64, memory: MemoryBudget.Lease?, deadline: ContinuousClock.Instant, heavy: Bool) {
            self.id = id
            self.memory = memory
            self.heavy = heavy
            cancellation = Cancellation(deadline: deadline)
        }
    }

    private struct State {
        var free: [Int]
        /// Requests admitted to the queue (some may not have parked their continuation yet).
        var queued = 0
        var waiting: [(job: UInt64, heavy: Bool, continuation: CheckedContinuation<Int, any Error>)] = []
        /// Heavy jobs on slots now.
        var heavyRunning = 0
        /// The job on each busy slot, and the slots whose job was answered past its deadline
        /// but has not returned yet.
        var running: [Int: UInt64] = [:]
        /// Since when (a slot is freed, and leaves this, when its render returns).
        var stuck: [Int: ContinuousClock.Instant] = [:]
        var nextJob: UInt64 = 0
    }

    let limit: Int
    let queue: Int
    private let budget: MemoryBudget?
    private let slots: [DispatchQueue]
    private let state: Mutex<State>

    init(limit: Int, queue: Int, budget: MemoryBudget? = nil) {
        self.limit = max(1, limit)
        self.queue = max(0, queue)
        self.budget = budget
        slots = (0..<self.limit).map { DispatchQueue(label: "hlrender.render.\($0)") }
        state = Mutex(State(free: Array(0..<self.limit)))
    }

    /// Requests waiting for a slot.
    var depth: Int { state.withLock { $0.queued } }
    var running: Int { state.withLock { limit - $0.free.count } }
    /// Every slot holds a render past its deadline: nothing new can start until one returns.
    var allStuck: Bool { state.withLock { $0.stuck.count == limit } }
    /// How long the slot stuck the longest has held a render past its deadline (zero when
    /// none is stuck): a render that never returns (a C library blocked for good) shows here,
    /// and `/healthz` fails once it is past `stuckLimit`, so the orchestrator restarts us.
    var longestStuck: Duration { state.withLock { s in s.stuck.values.min().map { ContinuousClock.now - $0 } ?? .zero } }
    /// Bytes the renders in flight have reserved.
    var memoryInUse: Int { budget?.inUse ?? 0 }

    /// A new job, due by `deadline` (its render stops at its next check past it), with a lease
    /// on the memory budget when there is one.
    func job(deadline: ContinuousClock.Instant, heavy: Bool = false) -> Job {
        let id = state.withLock { s in
            s.nextJob += 1
            return s.nextJob
        }
        return Job(id: id, memory: budget?.lease(), deadline: deadline, heavy: heavy)
    }

    /// Heavy jobs may hold all slots but one, so a small card never waits behind large ones
    /// (hogs that run to their deadline): with one slot, they share it.
    private var heavyLimit: Int { max(1, limit - 1) }

    /// A free slot `job` may take now; nil when it must wait. Called under the lock.
    private func take(_ s: inout State, heavy: Bool) -> Int? {
        guard !s.free.isEmpty, !heavy || s.heavyRunning < heavyLimit else { return nil }
        if heavy { s.heavyRunning += 1 }
        return s.free.popLast()
    }

    /// Runs `work` on a free slot; throws `Overloaded` when the queue is full, `TimedOut` at the
    /// job's deadline, `Abandoned` once `abandon(job)` was called.
    func run<T: Sendable>(_ job: Job, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let deadline = job.deadline
        let slot = try await acquire(job, deadline: deadline)
        return try await withCheckedThrowingContinuation { continuation in
            let answered = Once()
            state.withLock { $0.running[slot] = job.id }
            slots[slot].async {
                var result = Result { () throws -> T in
                    try job.cancellation.check()
                    return try work()
                }
                // Stopped at a check past its deadline before the timer ran: the same answer.
                if case let .failure(error) = result, error is Cancellation.Cancelled, ContinuousClock.now >= deadline {
                    result = .failure(TimedOut(queued: false))
                }
                job.memory?.end()
                self.release(slot, heavy: job.heavy)
                if answered.claim() { continuation.resume(with: result) }
            }
            after(deadline) {
                guard answered.claim() else { return }
                job.cancellation.cancel()
                self.state.withLock { s in
                    if s.running[slot] == job.id { s.stuck[slot] = .now }
                }
                continuation.resume(throwing: TimedOut(queued: false))
            }
        }
    }

    /// The client went away: the job leaves the queue, or its render stops at its next check.
    func abandon(_ job: Job) {
        job.cancellation.cancel()
        withdraw(job.id, Abandoned())
    }

    /// True for the first caller only: the render and the timer race to answer once.
    private final class Once: Sendable {
        private let done = Atomic<Bool>(false)
        func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
    }

    private func after(_ deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () -> Void) {
        let left = max(.zero, deadline - .now).components
        let nanoseconds = Int(left.seconds) * 1_000_000_000 + Int(left.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: body)
    }

    private func acquire(_ job: Job, deadline: ContinuousClock.Instant) async throws -> Int {
        enum Decision { case go(Int), wait, refuse }
        let decision: Decision = state.withLock { s in
            if let slot = take(&s, heavy: job.heavy) { return .go(slot) }
            guard s.queued < queue else { return .refuse }
            s.queued += 1
            return .wait
        }
        switch decision {
        case let .go(slot): return slot
        case .refuse: throw Overloaded()
        case .wait:
            // The slot is handed over by `release`; the deadline or `abandon` withdraws the job.
            return try await withCheckedThrowingContinuation { continuation in
                enum Parked { case slot(Int), timedOut, abandoned, parked }
                let parked: Parked = state.withLock { s in
                    if let slot = take(&s, heavy: job.heavy) {
                        s.queued -= 1
                        return .slot(slot)
                    }
                    if job.cancellation.isCancelled {
                        s.queued -= 1
                        // Cancelled by its deadline (which cancels too) or by the client leaving.
                        return ContinuousClock.now >= deadline ? .timedOut : .abandoned
                    }
                    s.waiting.append((job.id, job.heavy, continuation))
                    return .parked
                }
                switch parked {
                case let .slot(slot): continuation.resume(returning: slot)
                case .timedOut: continuation.resume(throwing: TimedOut(queued: true))
                case .abandoned: continuation.resume(throwing: Abandoned())
                case .parked: after(deadline) { self.withdraw(job.id, TimedOut(queued: true)) }
                }
            }
        }
    }

    /// Takes a waiting job out of the queue with `error` (nothing when it already has a slot).
    private func withdraw(_ id: UInt64, _ error: any Error) {
        let continuation: CheckedContinuation<Int, any Error>? = state.withLock { s in
            guard let index = s.waiting.firstIndex(where: { $0.job == id }) else { return nil }
            s.queued -= 1
            return s.waiting.remove(at: index).continuation
        }
        continuation?.resume(throwing: error)
    }

    private func release(_ slot: Int, heavy: Bool) {
        let next: CheckedContinuation<Int, any Error>? = state.withLock { s in
            s.running[slot] = nil
            s.stuck[slot] = nil
            if heavy { s.heavyRunning -= 1 }
            // The first waiting job that may take the slot: a light one always, a heavy one
            // while heavy jobs leave a slot free.
            guard let index = s.waiting.firstIndex(where: { !$0.heavy || s.heavyRunning < heavyLimit }) else {
                s.free.append(slot)
                return nil
            }
            s.queued -= 1
            let next = s.waiting.remove(at: index)
            if next.heavy { s.heavyRunning += 1 }
            return next.continuation
        }
        next?.resume(returning: slot)
    }
}
