import Support

/// Gaussian blur approximated by three box blurs (see docs/ARCHITECTURE.md), on premultiplied 8-bit
/// channels (Cairo's ARGB32, any channel order: every byte is blurred on its own, which is
/// right for premultiplied colour). Each pass keeps a running sum, so the cost per pixel does
/// not grow with the radius. Pixels outside the buffer count as transparent: pad the buffer by
/// `BoxBlur.reach(sigma:)` and nothing is lost at the edges (every channel's total is kept).
///
/// Speed: every pass is a running sum down byte columns, a whole row of columns per step, in
/// plain loops the compiler vectorises (zero-extend, add, multiply-high, pack). Vertical passes
/// run on column bands and horizontal passes on strips of rows transposed into a tile, so the
/// three passes of each direction work on data that stays in cache.
package enum BoxBlur {
    /// Bytes per vertical band and rows per horizontal strip (measured on 1080x1920).
    static let band = 512
    static let strip = 64

    /// Box widths (odd) for `passes` boxes whose combined variance approximates sigma².
    package static func boxWidths(sigma: Double, passes: Int = 3) -> [Int] {
        guard sigma > 0 else { return [] }
        let n = Double(passes)
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Checked.clamped(ideal, .down, in: 1...Int(Int32.max))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(lower, 1)
        let upper = lower + 2
        let wl = Double(lower)
        let m = Int(((12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4)).rounded())
        return (0..<passes).map { $0 < m ? lower : upper }
    }

    /// How far the blur spreads from a pixel: the sum of the boxes' radii.
    package static func reach(sigma: Double) -> Int {
        boxWidths(sigma: sigma).reduce(0) { $0 + $1 / 2 }
    }

    /// Blurs `height` rows of `width` 4-byte pixels, `stride` bytes apart, in place.
    package static func blur(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
        let radii = boxWidths(sigma: sigma).map { $0 / 2 }.filter { $0 > 0 }
        guard !radii.isEmpty, width > 0, height > 0 else { return }
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: max(band, strip * 4))
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(2 * band * height, 2 * strip * 4 * width))
        defer { sums.deallocate(); buffer.deallocate() }
        horizontal(pixels, width: width, height: height, stride: stride, radii: radii, tiles: buffer, sums: sums)
        let rowBytes = width * 4
        for x0 in Swift.stride(from: 0, to: rowBytes, by: band) {
            let n = min(band, rowBytes - x0)
            let image = pixels + x0
            // Rotate image -> A -> B -> image ...: with an odd number of passes the last one
            // writes straight back into the image; with an even number, copy back at the end.
            let buffers = [(buffer, n), (buffer + band * height, n)]
            var from = (image, stride)
            for (k, r) in radii.enumerated() {
                let to = k == radii.count - 1 && radii.count % 2 == 1 ? (image, stride) : buffers[k % 2]
                columnPass(from.0, from.1, to.0, to.1, rows: height, rowBytes: n, radius: r, sums: sums)
                from = to
            }
            if from.0 != image {
                for y in 0..<height { (image + y * stride).update(from: from.0 + y * n, count: n) }
            }
        }
    }

    /// All horizontal passes, `strip` rows at a time: transpose the strip into a tile whose
    /// rows are the strip's columns, run column passes on it, transpose back.
    private static func horizontal(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int,
                                   radii: [Int], tiles: UnsafeMutablePointer<UInt8>, sums: UnsafeMutablePointer<UInt32>) {
        let tileBytes = strip * 4
        let tileA = tiles, tileB = tiles + tileBytes * width
        let rowPixels = stride / 4
        tileA.withMemoryRebound(to: UInt32.self, capacity: strip * width) { a in
            pixels.withMemoryRebound(to: UInt32.self, capacity: height * rowPixels) { image in
                var y0 = 0
                while y0 < height {
                    let count = min(strip, height - y0)
                    if count < strip { a.update(repeating: 0, count: width * strip) }
                    transpose(from: image + y0 * rowPixels, stride: rowPixels, to: a, stride: strip,
                              rows: count, columns: width)
                    var from = tileA, to = tileB
                    for r in radii {
                        columnPass(from, tileBytes, to, tileBytes, rows: width, rowBytes: tileBytes, radius: r, sums: sums)
                        swap(&from, &to)
                    }
                    from.withMemoryRebound(to: UInt32.self, capacity: strip * width) { result in
                        transpose(from: result, stride: strip, to: image + y0 * rowPixels, stride: rowPixels,
                                  rows: width, columns: count)
                    }
                    y0 += strip
                }
            }
        }
    }

    /// `to[x][y] = from[y][x]` for `rows` x `columns` pixels: 4x4 blocks through SIMD
    /// registers (four loads, shuffles, four stores), the ragged edge one pixel at a time.
    private static func transpose(from: UnsafePointer<UInt32>, stride fs: Int, to: UnsafeMutablePointer<UInt32>,
                                  stride ts: Int, rows: Int, columns: Int) {
        let rows4 = rows & ~3, columns4 = columns & ~3
        for y in Swift.stride(from: 0, to: rows4, by: 4) {
            for x in Swift.stride(from: 0, to: columns4, by: 4) {
                let r0 = UnsafeRawPointer(from + y * fs + x).loadUnaligned(as: SIMD4<UInt32>.self)
                let r1 = UnsafeRawPointer(from + (y + 1) * fs + x).loadUnaligned(as: SIMD4<UInt32>.self)
                let r2 = UnsafeRawPointer(from + (y + 2) * fs + x).loadUnaligned(as: SIMD4<UInt32>.self)
                let r3 = UnsafeRawPointer(from + (y + 3) * fs + x).loadUnaligned(as: SIMD4<UInt32>.self)
                for j in 0..<4 {
                    UnsafeMutableRawPointer(to + (x + j) * ts + y)
                        .storeBytes(of: SIMD4(r0[j], r1[j], r2[j], r3[j]), as: SIMD4<UInt32>.self)
                }
            }
        }
        for y in 0..<rows {
            let tail = y < rows4 ? columns4 : 0
            for x in tail..<columns { to[x * ts + y] = from[y * fs + x] }
        }
    }

    /// One box pass down every byte column: reads `rows` rows of `src`, writes them to `dst`
    /// (a different buffer, so no original row has to be saved).
    static func columnPass(_ src: UnsafeMutablePointer<UInt8>, _ srcStride: Int, _ dst: UnsafeMutablePointer<UInt8>,
                           _ dstStride: Int, rows: Int, rowBytes: Int, radius r: Int, sums: UnsafeMutablePointer<UInt32>) {
        if 255 * (2 * r + 1) <= Int(UInt16.max) && rowBytes % 16 == 0 {
            sums.withMemoryRebound(to: UInt16.self, capacity: rowBytes) {
                pass16(src, srcStride, dst, dstStride, rows: rows, n: rowBytes, radius: r, sums: $0)
            }
        } else {
            pass32(src, srcStride, dst, dstStride, rows: rows, n: rowBytes, radius: r, sums: sums)
        }
    }

    /// Sums fit in 16 bits (boxes up to 257 wide). Per output row: one loop writes round(sum/w)
    /// (a plain loop the compiler turns into a 16-bit multiply-high; SIMD 16-to-32-bit
    /// conversions are outlined calls in Swift 6.3, far slower), one loop moves the window
    /// (explicit SIMD16 lanes: add the entering row, drop the leaving one). `n` is a multiple of 16.
    private static func pass16(_ src: UnsafeMutablePointer<UInt8>, _ srcStride: Int, _ dst: UnsafeMutablePointer<UInt8>,
                               _ dstStride: Int, rows: Int, n: Int, radius r: Int, sums: UnsafeMutablePointer<UInt16>) {
        let w = 2 * r + 1
        // Rounded up: a multiplier just under 65536/w would turn exact halves (2/3 -> 1) into
        // 0 and bias every pass downwards.
        let multiplier = UInt16((65536.0 / Double(w)).rounded(.up))
        let halfW = UInt16(w / 2)
        let chunks = n / 16
        sums.update(repeating: 0, count: n)
        sums.withMemoryRebound(to: SIMD16<UInt16>.self, capacity: chunks) { lanes in
            @inline(__always) func row(_ y: Int, _ c: Int) -> SIMD16<UInt16> {
                SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(src + y * srcStride + c * 16)
                    .loadUnaligned(as: SIMD16<UInt8>.self))
            }
            // The window of row 0: rows -r...r, those above the top being transparent.
            for y in 0...min(r, rows - 1) { for c in 0..<chunks { lanes[c] &+= row(y, c) } }
            for y in 0..<rows {
                let out = dst + y * dstStride
                for i in 0..<n {
                    out[i] = UInt8(truncatingIfNeeded: (UInt32(sums[i] &+ halfW) &* UInt32(multiplier)) &>> 16)
                }
                let entering = y + r + 1, leaving = y - r
                switch (entering < rows, leaving >= 0) {
                case (true, true): for c in 0..<chunks { lanes[c] = lanes[c] &+ row(entering, c) &- row(leaving, c) }
                case (true, false): for c in 0..<chunks { lanes[c] &+= row(entering, c) }
                case (false, true): for c in 0..<chunks { lanes[c] &-= row(leaving, c) }
                case (false, false): break
                }
            }
        }
    }

    /// Wider boxes: 32-bit sums.
    private static func pass32(_ src: UnsafeMutablePointer<UInt8>, _ srcStride: Int, _ dst: UnsafeMutablePointer<UInt8>,
                               _ dstStride: Int, rows: Int, n: Int, radius r: Int, sums: UnsafeMutablePointer<UInt32>) {
        let w = 2 * r + 1
        let multiplier = UInt32((65536.0 / Double(w)).rounded(.up))
        sums.update(repeating: 0, count: n)
        for y in 0..<min(r, rows) {
            let add = src + y * srcStride
            for i in 0..<n { sums[i] = sums[i] &+ UInt32(add[i]) }
        }
        for y in 0..<rows {
            if y + r < rows {
                let add = src + (y + r) * srcStride
                for i in 0..<n { sums[i] = sums[i] &+ UInt32(add[i]) }
            }
            let out = dst + y * dstStride
            for i in 0..<n { out[i] = UInt8(truncatingIfNeeded: ((sums[i] &+ UInt32(w / 2)) &* multiplier) &>> 16) }
            if y >= r {
                let drop = src + (y - r) * srcStride
                for i in 0..<n { sums[i] = sums[i] &- UInt32(drop[i]) }
            }
        }
    }
}
