import Synchronization

/// Rendered images by ETag, least recently used first out, bounded in bytes.
final class RenderedCache: Sendable {
    struct Entry: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    private struct State {
        var entries: [String: (entry: Entry, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(0, limit) }

    var totalBytes: Int { state.withLock { $0.bytes } }
    var count: Int { state.withLock { $0.entries.count } }

    subscript(key: String) -> Entry? {
        state.withLock { s in
            guard let found = s.entries[key] else { return nil }
            s.clock += 1
            s.entries[key]?.used = s.clock
            return found.entry
        }
    }

    /// Stores (or refreshes) an entry; one larger than the whole cache is not kept.
    func store(_ entry: Entry, for key: String) {
        guard entry.bytes.count <= limit else { return }
        state.withLock { s in
            if let old = s.entries[key] { s.bytes -= old.entry.bytes.count }
            s.clock += 1
            s.entries[key] = (entry, s.clock)
            s.bytes += entry.bytes.count
            guard s.bytes > limit else { return }
            // Evict the least recently used until it fits (a sort per overflow: entries are
            // whole images, a few thousand at most).
            for (victim, value) in s.entries.sorted(by: { $0.value.used < $1.value.used }) where s.bytes > limit {
                s.entries[victim] = nil
                s.bytes -= value.entry.bytes.count
            }
        }
    }
}
