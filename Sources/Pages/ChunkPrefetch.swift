import Dispatch
import Glibc
import Support
import Typeset

/// Chunk work done on other cores while this one works: the measuring pass lays out a few
/// chunks at once, and the drawing pass reads the next chunk's lines back (or lays it out
/// again) while the current page is drawn. At most one chunk per core is in flight: memory
/// stays a few chunks, whatever the text's length.
enum ChunkWork {
    /// Cores to use (at least 1).
    static let lanes = max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// `work(i)` for each of `indices`, `lanes` at a time, results in order; the first error
    /// is thrown.
    static func map<T: Sendable>(_ indices: Range<Int>, _ work: @Sendable (Int) throws -> T) throws -> [T] {
        guard indices.count > 1, lanes > 1 else { return try indices.map(work) }
        let results = Results<T>(count: indices.count)
        DispatchQueue.concurrentPerform(iterations: indices.count) { k in
            results.set(k, Result { try work(indices.lowerBound + k) })
        }
        return try results.values()
    }

    private final class Results<T: Sendable>: @unchecked Sendable {
        private let lock = Lock()
        private var slots: [Result<T, any Error>?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ value: Result<T, any Error>) { lock.withLock { slots[k] = value } }
        func values() throws -> [T] { try lock.withLock { try slots.map { try $0!.get() } } }
    }
}

/// One chunk's piece being made on a background thread.
final class PendingPiece: Sendable {
    let index: Int
    private let pending: Pending<ChunkedText.Piece>

    init(_ index: Int, of source: ChunkedText) {
        self.index = index
        pending = Pending { try source.piece(index) }
    }

    func piece() throws -> ChunkedText.Piece { try pending.value() }
}
