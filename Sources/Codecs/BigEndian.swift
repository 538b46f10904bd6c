/// Big-endian numbers in container bytes (PNG chunks, ISOBMFF boxes), written and read in one
/// place.
package enum BigEndian {
    /// `value`'s low `count` bytes, most significant first.
    package static func bytes(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }

    /// The number of `count` bytes at `offset` from the collection's start (the caller checked
    /// the bounds).
    package static func read<C: Collection<UInt8>>(_ data: C, _ offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in data.dropFirst(offset).prefix(count) { value = value << 8 | UInt64(byte) }
        return value
    }
}
