import CPNGCodec

/// PNG's chunk framing, read and written in one place: the description's iTXt chunks, APNG's
/// frames (written from our encoder's IDAT data, read back for `compare`).
package enum PNGChunks {
    /// One chunk: its four-letter type and its data (a slice of the file).
    package struct Chunk {
        package let type: String
        package let data: ArraySlice<UInt8>
    }

    /// The PNG signature.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks of a PNG file in order; nil when it is not one or a chunk runs past the end.
    package static func parse(_ bytes: [UInt8]) -> [Chunk]? {
        guard bytes.count > 8, bytes[0..<8].elementsEqual(signature) else { return nil }
        var at = 8, out: [Chunk] = []
        while at + 12 <= bytes.count {
            let length = read32(bytes[...], at)
            guard at + 12 + length <= bytes.count else { return nil }
            out.append(Chunk(type: String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), data: bytes[(at + 8)..<(at + 8 + length)]))
            at += 12 + length
        }
        return out
    }

    /// A chunk: length, type, data and CRC-32 over type and data.
    package static func make(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(typed.withUnsafeBufferPointer { hl_crc32($0.baseAddress, $0.count) }))
    }

    /// `v` as four big-endian bytes (its low 32 bits).
    package static func be32(_ v: Int) -> [UInt8] { BigEndian.bytes(UInt64(truncatingIfNeeded: v), count: 4) }

    /// `v` as two big-endian bytes (its low 16 bits).
    package static func be16(_ v: Int) -> [UInt8] { BigEndian.bytes(UInt64(truncatingIfNeeded: v), count: 2) }

    /// The big-endian 32-bit number at `offset` from the slice's start.
    package static func read32(_ data: ArraySlice<UInt8>, _ offset: Int) -> Int {
        Int(BigEndian.read(data, offset, count: 4))
    }
}
