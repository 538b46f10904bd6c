/// A few bytes looked for in UTF-8 text sixteen bytes at a time: a long document's text is
/// scanned for the bytes markup gives meaning to, and most of it holds none. (No byte of a
/// longer scalar's encoding is ASCII, so an ASCII byte found is that scalar.)
package struct ByteSet: Sendable {
    private let members: [UInt8]

    /// The set of `members`.
    package init(_ members: [UInt8]) { self.members = members }

    /// Whether `byte` is one of the set.
    @inline(__always) package func contains(_ byte: UInt8) -> Bool { members.contains(byte) }

    /// The offset of the first byte of the set in `bytes` at or after `start`, or `bytes.count`.
    package func firstIndex(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int {
        var i = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 16 <= bytes.count {
                let chunk = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                var hit = SIMDMask<SIMD16<Int8>>(repeating: false)
                for member in members { hit .|= chunk .== SIMD16(repeating: member) }
                if any(hit) { break }
                i += 16
            }
        }
        while i < bytes.count, !contains(bytes[i]) { i += 1 }
        return i
    }

    /// Whether `bytes` hold a byte of the set.
    package func occurs(in bytes: UnsafeBufferPointer<UInt8>) -> Bool { firstIndex(in: bytes) < bytes.count }

    /// The scalars that `bytes[range]` (UTF-8 cut at scalar boundaries) encode: its bytes that
    /// are no continuation byte (10xxxxxx).
    package static func scalarCount(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var count = 0, i = range.lowerBound
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 16 <= range.upperBound {
                let chunk = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let starts = SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: (chunk & 0xC0) .!= 0x80)
                count += Int(starts.wrappedSum())
                i += 16
            }
        }
        while i < range.upperBound {
            if bytes[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count
    }
}
