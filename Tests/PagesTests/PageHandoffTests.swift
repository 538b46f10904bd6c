import Glibc
import Synchronization
import Testing
@testable import Pages

/// The hand-off between the thread that makes pages and the one that draws them: order kept,
/// an error on either side ends both, and the making thread has stopped when `run` returns.
@Suite struct PageHandoffTests {
    struct Broken: Error {}

    @Test func itemsArriveInOrder() throws {
        var seen: [Int] = []
        try PageHandoff.run(depth: 2, produce: { emit in
            for i in 0..<500 { try emit(i) }
        }, consume: { seen.append($0) })
        #expect(seen == Array(0..<500))
    }

    @Test func aMakingErrorReachesTheCaller() {
        var seen: [Int] = []
        #expect(throws: Broken.self) {
            try PageHandoff.run(depth: 2, produce: { emit in
                for i in 0..<10 { try emit(i) }
                throw Broken()
            }, consume: { seen.append($0) })
        }
        #expect(seen == Array(0..<10), "the items made before the error are used first")
    }

    /// The consumer fails at the third item: the maker stops at its next item (at most `depth`
    /// more are made) and has returned when `run` throws.
    @Test func aUsingErrorStopsTheMaker() {
        let made = Atomic<Int>(0), returned = Atomic<Bool>(false)
        #expect(throws: Broken.self) {
            try PageHandoff.run(depth: 2, produce: { emit in
                defer { returned.store(true, ordering: .sequentiallyConsistent) }
                for i in 0..<10_000 {
                    made.add(1, ordering: .sequentiallyConsistent)
                    try emit(i)
                }
            }, consume: { if $0 == 2 { throw Broken() } })
        }
        let (count, done) = (made.load(ordering: .sequentiallyConsistent), returned.load(ordering: .sequentiallyConsistent))
        #expect(done)
        #expect(count <= 6, "\(count) made")
    }

    /// Where items were freed: on the caller's thread or elsewhere.
    final class Counts: Sendable {
        let value = Mutex<(here: Int, elsewhere: Int)>((0, 0))
    }

    /// Counts where it is freed.
    final class Tracked: Sendable {
        let caller: pthread_t
        let counts: Counts
        init(caller: pthread_t, counts: Counts) { (self.caller, self.counts) = (caller, counts) }
        deinit {
            let here = pthread_equal(pthread_self(), caller) != 0
            counts.value.withLock { here ? ($0.here += 1) : ($0.elsewhere += 1) }
        }
    }

    /// Used items are freed on the making thread (a page's many small objects cost the drawing
    /// thread time to free), and none outlives the call.
    @Test func usedItemsAreFreedOnTheMakingThread() throws {
        let counts = Counts()
        let caller = pthread_self()
        try PageHandoff.run(depth: 2, produce: { emit in
            for _ in 0..<200 { try emit(Tracked(caller: caller, counts: counts)) }
        }, consume: { (_: Tracked) in })
        let (here, elsewhere) = counts.value.withLock { $0 }
        #expect(here + elsewhere == 200, "every item is freed when run returns")
        #expect(elsewhere >= 190, "\(here) freed on the caller's thread")
    }
}
