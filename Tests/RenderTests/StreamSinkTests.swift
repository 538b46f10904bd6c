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

    /// Issue 48, finding 11: 300,000 tagged paragraphs make a cross-reference table of 12 MB,
    /// longer than the ring: the catalog before it fell out and the file failed. The table and
    /// what follows its keyword are kept whole, with the ring's bytes before them, whatever the
    /// pieces (the keyword may straddle two), and an earlier keyword-like run does not lose bytes.
    @Test func theTailKeepsTheCatalogAndTheWholeTableHoweverLong() {
        let limit = 64
        let catalog = Array("1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)
        let table = Array("\nxref\n0 5000\n".utf8) + Array(repeating: Array("0000000010 00000 n \n".utf8), count: 5000).flatMap { $0 }
        let stream = Array(repeating: UInt8(ascii: "a"), count: 1000) + Array("\nxref\n0 1\n".utf8) + Array(repeating: UInt8(ascii: "b"), count: 500)
            + catalog + table + Array("trailer\n<< /Size 5000 >>\nstartxref\n1\n%%EOF\n".utf8)
        for piece in [1, 3, 7, 100, 4096, stream.count] {
            var ring = TailRing(limit: limit)
            var i = 0
            while i < stream.count {
                let end = min(stream.count, i + piece)
                stream[i..<end].withUnsafeBytes { ring.append($0) }
                i = end
            }
            let kept = ring.bytes
            #expect(kept.count == ring.count && kept.count >= table.count + 40, "piece \(piece): \(kept.count)")
            #expect(kept == Array(stream.suffix(kept.count)), "piece \(piece): not the stream's last bytes")
            #expect(kept.count >= table.count + catalog.count + 40, "piece \(piece): the catalog fell out")
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
