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
}
