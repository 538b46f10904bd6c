import Synchronization

/// Bytes that work in flight may hold together (a service's renders): each job takes a lease,
/// reserves what it is about to allocate before allocating it, and gives everything back when
/// it ends. A job that could never fit is told so (`neverFits`: 413); one that does not fit now
/// is refused rather than queued (503), so memory is bounded by the budget, not by the traffic.
public final class MemoryBudget: Sendable {
    public struct Exceeded: Error, CustomStringConvertible {
        public var needed: Int
        public var total: Int
        /// More than the whole budget: retrying will not help.
        public var neverFits: Bool { needed > total }
        public var description: String {
            neverFits ? "needs about \(needed >> 20) MB, over the whole memory budget of \(total >> 20) MB"
                : "needs about \(needed >> 20) MB of a memory budget of \(total >> 20) MB that renders in flight hold"
        }
    }

    public let total: Int
    private let used = Mutex(0)

    public init(bytes: Int) { total = max(0, bytes) }

    /// Bytes reserved now.
    public var inUse: Int { used.withLock { $0 } }

    public func lease() -> Lease { Lease(budget: self) }

    fileprivate func take(_ bytes: Int, holding: Int) throws(Exceeded) {
        let taken = used.withLock { used -> Bool in
            guard used + bytes <= total else { return false }
            used += bytes
            return true
        }
        if !taken { throw Exceeded(needed: holding + bytes, total: total) }
    }

    fileprivate func give(_ bytes: Int) { used.withLock { $0 -= bytes } }

    /// One job's share of the budget.
    public final class Lease: Sendable {
        private let budget: MemoryBudget
        private let held = Mutex(0)

        fileprivate init(budget: MemoryBudget) { self.budget = budget }

        public var bytes: Int { held.withLock { $0 } }

        /// Reserves `bytes` more, or throws without reserving anything.
        public func reserve(_ bytes: Int) throws(Exceeded) {
            let bytes = max(0, bytes)
            try held.withLock { (held: inout Int) throws(Exceeded) in
                try budget.take(bytes, holding: held)
                held += bytes
            }
        }

        /// Gives back everything reserved (the job's memory is freed).
        public func end() {
            let bytes = held.withLock { held -> Int in
                defer { held = 0 }
                return held
            }
            budget.give(bytes)
        }

        deinit { end() }
    }
}
