import Synchronization

/// A rendered image and its description (what the `Image-Description` header says).
struct RenderedImage: Sendable {
    var bytes: [UInt8]
    var description: String
}

/// Rendered images by ETag, least recently used first out, bounded in bytes. (The ETag covers
/// the format, so the key alone decides the content type.)
final class RenderedCache: Sendable {
    private struct State {
        var entries: [String: (image: RenderedImage, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(0, limit) }

    var totalBytes: Int { state.withLock { $0.bytes } }
    var count: Int { state.withLock { $0.entries.count } }

    subscript(key: String) -> RenderedImage? {
        state.withLock { s in
            guard let found = s.entries[key] else { return nil }
            s.clock += 1
            s.entries[key]?.used = s.clock
            return found.image
        }
    }

    /// Stores (or refreshes) an entry; one larger than the whole cache is not kept.
    func store(_ image: RenderedImage, for key: String) {
        let size = image.bytes.count + image.description.utf8.count
        guard size <= limit else { return }
        state.withLock { s in
            if let old = s.entries[key] { s.bytes -= old.image.bytes.count + old.image.description.utf8.count }
            s.clock += 1
            s.entries[key] = (image, s.clock)
            s.bytes += size
            guard s.bytes > limit else { return }
            // Evict the least recently used until it fits (a sort per overflow: entries are
            // whole images, a few thousand at most).
            for (victim, value) in s.entries.sorted(by: { $0.value.used < $1.value.used }) where s.bytes > limit {
                s.entries[victim] = nil
                s.bytes -= value.image.bytes.count + value.image.description.utf8.count
            }
        }
    }
}
