import Synchronization

/// Bytes that work in flight may hold together (a service's renders): each job takes a lease,
/// reserves what it is about to allocate before allocating it, and gives everything back when
/// it ends. A job that could never fit is told so (`neverFits`: 413); one that does not fit now
/// is refused rather than queued (503), so memory is bounded by the budget, not by the traffic.
package final class MemoryBudget: Sendable {
    package struct Exceeded: Error, CustomStringConvertible {
        package var needed: Int
        package var total: Int
        /// More than the whole budget: retrying will not help.
        package var neverFits: Bool { needed > total }
        package var description: String {
            neverFits ? "needs about \(needed >> 20) MB, over the whole memory budget of \(total >> 20) MB"
                : "needs about \(needed >> 20) MB of a memory budget of \(total >> 20) MB that renders in flight hold"
        }
    }

    package let total: Int
    private let used = Mutex(0)
    /// The budget this one is a share of: what is taken here is taken there too (a service's
    /// request bodies are a quarter of the memory its renders and bodies hold together).
    private let parent: MemoryBudget?

    package init(bytes: Int, within parent: MemoryBudget? = nil) {
        total = max(0, bytes)
        self.parent = parent
    }

    /// Bytes reserved now.
    package var inUse: Int { used.withLock { $0 } }

    package func lease() -> Lease { Lease(budget: self) }

    fileprivate func take(_ bytes: Int, holding: Int) throws(Exceeded) {
        let taken = used.withLock { used -> Bool in
            guard used + bytes <= total else { return false }
            used += bytes
            return true
        }
        if !taken { throw Exceeded(needed: holding + bytes, total: total) }
        do {
            try parent?.take(bytes, holding: holding)
        } catch {
            used.withLock { $0 -= bytes }
            throw error
        }
    }

    fileprivate func give(_ bytes: Int) {
        used.withLock { $0 -= bytes }
        parent?.give(bytes)
    }

    /// One job's share of the budget.
    package final class Lease: Sendable {
        private let budget: MemoryBudget
        private let held = Mutex(0)

        fileprivate init(budget: MemoryBudget) { self.budget = budget }

        package var bytes: Int { held.withLock { $0 } }

        /// Reserves `bytes` more, or throws without reserving anything.
        package func reserve(_ bytes: Int) throws(Exceeded) {
            let bytes = max(0, bytes)
            try held.withLock { (held: inout Int) throws(Exceeded) in
                try budget.take(bytes, holding: held)
                held += bytes
            }
        }

        /// Gives back everything reserved (the job's memory is freed).
        package func end() {
            let bytes = held.withLock { held -> Int in
                defer { held = 0 }
                return held
            }
            budget.give(bytes)
        }

        deinit { end() }
    }
}
