import Foundation
@testable import Render
import Testing

/// A streamed file's plumbing: the tail kept for the catalog update, and the writer thread
/// that delivers the file while the next page is drawn.
@Suite struct StreamSinkTests {
    @Test func theTailRingKeepsExactlyTheLastBytes() {
        var generator = SystemRandomNumberGenerator()
        for limit in [1, 7, 64, 1000] {
            var ring = TailRing(limit: limit)
            var all: [UInt8] = []
            for step in 0..<200 {
                // Pieces shorter and longer than the ring, empty ones included.
                let count = step % 17 == 0 ? limit + Int.random(in: 0...3, using: &generator) : Int.random(in: 0...(limit / 2 + 2), using: &generator)
                let piece = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
                piece.withUnsafeBytes { ring.append($0) }
                all += piece
                #expect(ring.bytes == Array(all.suffix(limit)), "limit \(limit), step \(step)")
                #expect(ring.count == min(limit, all.count))
            }
        }
    }

    @Test func theWriterDeliversInOrderAndStopsAtTheFirstFailure() {
        final class Seen: @unchecked Sendable {
            var steps: [Int] = []
        }
        let seen = Seen()
        let writer = SinkWriter(depth: 2)
        for i in 0..<50 {
            #expect(writer.send { seen.steps.append(i); return true })
        }
        #expect(writer.drain())
        #expect(seen.steps == Array(0..<50))
        #expect(writer.send { seen.steps.append(-1); return false })
        #expect(!writer.drain())
        // Nothing after a failure runs, and the sender is told.
        #expect(!writer.send { seen.steps.append(99); return true })
        #expect(!writer.drain())
        #expect(seen.steps.last == -1)
    }
}
