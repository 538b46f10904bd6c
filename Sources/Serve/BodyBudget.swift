import ServeConfig
import Support

/// Bytes of request bodies being received, all connections together: each body reserves its
/// length (its chunks as they come, when it has none) before it is buffered, and a body that
/// does not fit is refused at once (503, connection closed). 1,500 connections each sending
/// 1 MB and stalling held 1.98 GB before; now the bodies hold at most `budget.total`, a share
/// of the one memory budget.
///
/// Freed bodies and connections' own buffers go back to malloc, which keeps them in its
/// arenas: every 2 s while no body is being received, what malloc keeps free is handed back to
/// the system (a few ms when there is nothing to give), so the resident size falls again after
/// a flood. The sweep lives as long as this value.
final class BodyBudget: Sendable {
    let budget: MemoryBudget

    /// At most a quarter of the memory budget (room for at least four largest bodies), taken
    /// from `memory`, the budget renders draw from: bodies and renders together stay within
    /// `--memory-mb`.
    init(settings: ServeSettings, within memory: MemoryBudget?) {
        budget = MemoryBudget(bytes: max(settings.memoryBudget / 4, settings.maxBody * 4), within: memory)
        Task.detached { [weak self] in
            while self != nil {
                try? await Task.sleep(for: .seconds(2))
                if let self, self.budget.inUse == 0 { _ = mallocTrim(0) }
            }
        }
    }
}

/// glibc's malloc_trim (malloc.h, which the Glibc module does not export): frees the arenas'
/// unused memory back to the system.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
