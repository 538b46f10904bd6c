import Dispatch
import Render
import Support

/// Items made on a thread of its own and used on the caller's, in order, at most `depth`
/// ahead: a long document's pages are cut from their chunks and made into scenes there while
/// the caller's thread has Cairo draw the page before (Cairo's PDF writer is the one thread a
/// long document waits for). The first error from either side ends both; `run` returns only
/// after the making thread has stopped, so nothing it was given outlives the call.
enum PageHandoff {
    /// Runs `produce` on a new thread, handing each item it emits to `consume` on this one.
    static func run<Item>(depth: Int, produce: (_ emit: (Item) throws -> Void) throws -> Void,
                          consume: (Item) throws -> Void) throws {
        try withoutActuallyEscaping(produce) { produce in
            // The thread holds the line only; the line lets go of `produce` before it says the
            // making is over (what `withoutActuallyEscaping` checks when this returns).
            let line = Line<Item>(depth: depth, produce: produce)
            guard DetachedThread.start({ line.make() }) else {
                // No thread to be had: made and used in turn on this one.
                line.letGo()
                return try produce { try consume($0) }
            }
            try line.use(consume)
        }
    }

    /// The items between the two threads, and how the making ended.
    private final class Line<Item>: @unchecked Sendable {
        private let lock = Lock()
        // Guarded by `lock`.
        private var items: [Item] = []
        /// Items used, freed on the making thread at its next item: a page's scene and lines
        /// are many small objects, and freeing them was a twentieth of the drawing thread.
        private var spent: [Item] = []
        private var ended = false, stopped = false
        private var failure: (any Error)?
        /// Room for one more item; an item or the end is ready; the making thread has returned.
        private let room: DispatchSemaphore, ready = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)

        typealias Produce = (_ emit: (Item) throws -> Void) throws -> Void
        private var produce: Produce?

        init(depth: Int, produce: @escaping Produce) {
            // Made empty and signalled: Dispatch traps when a semaphore goes below the value
            // it was made with at its end, which a stopped hand-off may leave it.
            room = DispatchSemaphore(value: 0)
            for _ in 0..<max(1, depth) { room.signal() }
            self.produce = produce
        }

        /// Drops the making closure (before the caller may return).
        func letGo() { produce = nil }

        private struct Stopped: Error {}

        /// The making thread's body.
        func make() {
            making()
            letGo()
            lock.withLock { ended = true }
            ready.signal()
            finished.signal()
        }

        private func making() {
            guard let produce else { return }
            do {
                try produce { item in
                    var used: [Item] = []
                    lock.withLock { swap(&used, &spent) }
                    used.removeAll()  // freed here, on this thread
                    room.wait()
                    let stop = lock.withLock { () -> Bool in
                        if stopped { return true }
                        items.append(item)
                        return false
                    }
                    if stop { throw Stopped() }
                    ready.signal()
                }
            } catch is Stopped {
            } catch {
                lock.withLock { failure = error }
            }
        }

        /// The caller's loop: each item in turn, then the making thread's error if it had one.
        func use(_ consume: (Item) throws -> Void) throws {
            var finishedNormally = false
            defer {
                if !finishedNormally {
                    // Stopped early (an error here): the making thread sees it at its next
                    // item, or is woken if it waits for room.
                    lock.withLock { stopped = true }
                    room.signal()
                }
                finished.wait()
                lock.withLock { spent.removeAll() }  // nothing used outlives the call
            }
            while true {
                ready.wait()
                let next = lock.withLock { () -> (Item?, (any Error)?, Bool) in
                    if !items.isEmpty { return (items.removeFirst(), nil, false) }
                    return (nil, failure, ended)
                }
                if let item = next.0 {
                    room.signal()
                    try consume(item)
                    lock.withLock { spent.append(item) }
                    continue
                }
                if let error = next.1 { throw error }
                if next.2 {
                    finishedNormally = true
                    return
                }
            }
        }
    }
}
