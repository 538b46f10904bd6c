import CSHA256
/// SHA-256 (FIPS 180-4) and HMAC over it, for a golden suite's input hashes and environment
/// record and the service's keyed ETags: no crypto library is linked for these uses. The
/// compression runs on the CPU's SHA extensions when it has them (CSHA256), else in Swift.
package enum SHA256 {
    /// The round constants, from the C table both compressions read.
    private static var k: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(start: hl_sha256_constants(), count: 64) }

    /// The digest as 64 lowercase hex digits.
    package static func hex(_ data: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest(data) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// HMAC-SHA-256 (RFC 2104) of `data` under `key`, as hex: a digest nobody without the key
    /// can compute (the service's ETags, so they reveal nothing of what they name).
    package static func hmacHex(key: [UInt8], _ data: [UInt8]) -> String {
        var block = key.count > 64 ? digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + data)
        return hex(block.map { $0 ^ 0x5c } + inner)
    }

    /// The 32-byte digest; `extensions` picks the CPU's SHA instructions or the Swift code
    /// (the tests compare the two).
    package static func digest(_ data: [UInt8], extensions: Bool = hardware) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        // The whole blocks straight from the data; the last bytes, the 0x80 and the length in
        // a tail of one or two blocks (the data is never copied: suites hash every golden).
        let whole = data.count / 64 * 64
        var tail = [UInt8](data[whole...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(data.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        if extensions && hardware {
            withUnsafeMutableBytes(of: &h) { state in
                let words = state.baseAddress!.assumingMemoryBound(to: UInt32.self)
                if whole > 0 { data.withUnsafeBufferPointer { hl_sha256_compress(words, $0.baseAddress!, whole / 64) } }
                tail.withUnsafeBufferPointer { hl_sha256_compress(words, $0.baseAddress!, tail.count / 64) }
            }
        } else {
            swiftDigest(data, whole: whole, tail: tail, into: &h)
        }
        return [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// Whether the CPU has the SHA extensions (asked once).
    package static let hardware = hl_sha256_hardware() == 1

    /// The compression in Swift, for CPUs without the SHA extensions, and the reference the
    /// tests hold the hardware path to.
    private static func swiftDigest(_ data: [UInt8], whole: Int, tail: [UInt8], into h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            if whole > 0 { data.withUnsafeBufferPointer { bytes in compress(bytes.baseAddress!, blocks: whole / 64, into: &h, w: w, k: k) } }
            tail.withUnsafeBufferPointer { bytes in compress(bytes.baseAddress!, blocks: tail.count / 64, into: &h, w: w, k: k) }
        }
    }

    /// FIPS 180-4's compression of `blocks` 64-byte blocks at `bytes` into the state `h`.
    private static func compress(_ bytes: UnsafePointer<UInt8>, blocks: Int, into h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
                                 w: UnsafeMutableBufferPointer<UInt32>, k: UnsafeBufferPointer<UInt32>) {
        for block in 0..<blocks {
            let p = bytes + block * 64
            for i in 0..<16 {
                w[i] = UInt32(p[i * 4]) << 24 | UInt32(p[i * 4 + 1]) << 16 | UInt32(p[i * 4 + 2]) << 8 | UInt32(p[i * 4 + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = h
            for i in 0..<64 {
                let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
        }
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
}
