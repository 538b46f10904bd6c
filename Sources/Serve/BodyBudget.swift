import ServeConfig
import Support
import Synchronization

/// Bytes of request bodies being received, all connections together: each body reserves its
/// length (its chunks as they come, when it has none) before it is buffered, and a body that
/// does not fit is refused at once (503, connection closed). 1,500 connections each sending
/// 1 MB and stalling held 1.98 GB before; now they hold at most `total`.
///
/// Freed bodies go back to malloc, which keeps them in its arenas: once no body is being
/// received, at most once a second, the free memory is handed back to the system, so the
/// resident size falls again after a flood.
final class BodyBudget: Sendable {
    let budget: MemoryBudget
    private let lastTrim = Mutex(ContinuousClock.now)

    /// A quarter of the render memory budget, and room for at least four largest bodies.
    init(settings: ServeSettings) {
        budget = MemoryBudget(bytes: max(settings.memoryBytes / 4, settings.maxBody * 4))
        // Connections' own buffers are freed when they close, which no lease sees: a slow
        // sweep hands whatever malloc keeps free back to the system (a few ms when there is
        // nothing to give), for as long as this budget lives.
        Task.detached { [weak self] in
            while self != nil {
                try? await Task.sleep(for: .seconds(2))
                guard let self, self.budget.inUse == 0 else { continue }
                self.released()
            }
        }
    }

    var inUse: Int { budget.inUse }

    private let trimPending = Atomic<Bool>(false)

    /// Called when a body's lease ends: once bodies stop arriving, the next trim is due a
    /// second after the last (one waits in the background when it is too early).
    func released() {
        guard budget.inUse == 0 else { return }
        let wait = lastTrim.withLock { last -> Duration? in
            let since = ContinuousClock.now - last
            guard since > .seconds(1) else { return .seconds(1) - since }
            last = .now
            return nil
        }
        guard let wait else { _ = mallocTrim(0); return }
        guard trimPending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Task.detached { [self] in
            try? await Task.sleep(for: wait)
            trimPending.store(false, ordering: .releasing)
            released()
        }
    }
}

/// glibc's malloc_trim (malloc.h, which the Glibc module does not export): frees the arenas'
/// unused memory back to the system.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
