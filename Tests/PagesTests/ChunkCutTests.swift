import Testing
import TestSupport
@testable import Pages

/// A long text is cut into chunks at lone line feeds: the search from each chunk's size gives
/// the cuts that reading every byte gives, CR LF pairs never cut, on texts of every kind of
/// line end and chunk sizes from one byte up.
@Suite struct ChunkCutTests {
    /// Every byte read: a lone LF at least `size` bytes into the chunk ends it.
    static func byteByByte(_ bytes: [UInt8], size: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = [], start = 0, previous: UInt8 = 0
        for (i, byte) in bytes.enumerated() {
            if byte == 0x0A, previous != 0x0D, i + 1 - start >= size {
                ranges.append(start..<i)
                start = i + 1
            }
            previous = byte
        }
        ranges.append(start..<bytes.count)
        return ranges
    }

    @Test func cutsAsReadingEveryByte() {
        var random = SplitMix(seed: 50)
        let pieces: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D], Array("word ".utf8), Array("é".utf8), [0x0A, 0x0A]]
        for length in [0, 1, 2, 40, 300] {
            var text: [UInt8] = []
            while text.count < length { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            for size in [1, 2, 3, 7, 16, 64, 1000, Int.max] {
                let cut = text.withUnsafeBufferPointer { ChunkedText.cut($0, size: size) }
                #expect(cut == Self.byteByByte(text, size: size), "\(length) bytes, size \(size)")
            }
        }
        #expect([UInt8]("ab\r\ncd\nef\ng".utf8).withUnsafeBufferPointer { ChunkedText.cut($0, size: 2) } == [0..<6, 7..<9, 10..<11])
    }
}
