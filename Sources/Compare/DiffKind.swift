import Support

/// Why two images differ, in the words a reviewer wants first: the size changed, the content
/// moved, only anti-aliasing changed, only colours changed, or something else changed.
package enum DiffKind: Equatable, Sendable, CustomStringConvertible {
    case size
    /// The changed region of the actual image is the expected one moved by (dx, dy) pixels.
    case shifted(dx: Int, dy: Int)
    case antialiasing
    case colour
    case changed

    /// The JSON name.
    package var name: String {
        switch self {
        case .size: "size"
        case .shifted: "shifted"
        case .antialiasing: "anti-aliasing"
        case .colour: "colour"
        case .changed: "changed"
        }
    }

    package var description: String {
        switch self {
        case .size: "size changed"
        case let .shifted(dx, dy): "content shifted by (\(dx), \(dy))"
        case .antialiasing: "anti-aliasing only"
        case .colour: "colour only"
        case .changed: "changed"
        }
    }
}

/// Finds the `DiffKind` of two same-size images already compared. Each test looks only at the
/// bounding box of the counted pixels, so the cost follows the change, not the image.
package enum DiffClassifier {
    /// The largest shift searched for, in pixels each way.
    package static let maxShift = 24

    /// The kind of a comparison with pixels over the threshold (counted or taken as anti-aliasing).
    package static func classify(_ expected: RGBAImage, _ actual: RGBAImage, result: DiffResult, options: DiffOptions) -> DiffKind {
        guard expected.width == actual.width, expected.height == actual.height else { return .size }
        if result.differentPixels == result.antialiasLikePixels { return .antialiasing }
        guard let box = result.bounds else { return .antialiasing }
        let maxDelta = ImageDiff.maxYIQDelta * options.threshold * options.threshold
        return expected.pixels.withUnsafeBufferPointer { a in
            actual.pixels.withUnsafeBufferPointer { b in
                let scene = Scene(a: a, b: b, width: expected.width, height: expected.height, maxDelta: maxDelta)
                if let shift = scene.shift(in: box) { return .shifted(dx: shift.dx, dy: shift.dy) }
                if scene.edgesOnly(in: box) { return .antialiasing }
                if scene.sameShapes(in: box) { return .colour }
                return .changed
            }
        }
    }

    private struct Scene {
        let a: UnsafeBufferPointer<UInt8>
        let b: UnsafeBufferPointer<UInt8>
        let width: Int
        let height: Int
        let maxDelta: Double

        /// A pixel's four bytes as one word (an equality test in one compare).
        @inline(__always) func word(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
            UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: UInt32.self)
        }

        /// Whether the pixel at byte `i` is the same in both images (the common case: the
        /// tests below skip their colour arithmetic there).
        @inline(__always) func unchanged(_ i: Int) -> Bool { word(a, i) == word(b, i) }

        /// Two pixels alike: equal bytes or a YIQ delta within the threshold.
        func alike(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ q: UnsafeBufferPointer<UInt8>, _ j: Int) -> Bool {
            if word(p, i) == word(q, j) { return true }
            return abs(ImageDiff.colorDelta(p, i, q, j, yOnly: false)) <= maxDelta && abs(Int(p[i + 3]) - Int(q[j + 3])) <= 8
        }

        func index(_ x: Int, _ y: Int) -> Int { (y * width + x) * 4 }

        /// The pixels of the box that differ, at most `limit` of them, spread over the box.
        func differing(in box: PixelRect, limit: Int) -> [(Int, Int)] {
            var all: [(Int, Int)] = []
            for y in box.y..<(box.y + box.height) {
                for x in box.x..<(box.x + box.width) where !unchanged(index(x, y)) && !alike(a, index(x, y), b, index(x, y)) { all.append((x, y)) }
            }
            guard all.count > limit else { return all }
            let step = Double(all.count) / Double(limit)
            return (0..<limit).map { all[Int(Double($0) * step)] }
        }

        /// The offset that explains the change: the sampled differing pixels agree with the
        /// other image (dx, dy) away, checked first on 64 samples, then on up to 4,096; 98% must
        /// agree (pixels whose counterpart falls outside the image are skipped).
        func shift(in box: PixelRect) -> (dx: Int, dy: Int)? {
            let samples = differing(in: box, limit: 4096)
            guard samples.count >= 4 else { return nil }
            let quick = Array(samples.prefix(64))
            var best: (dx: Int, dy: Int, score: Double)?
            let r = DiffClassifier.maxShift
            for dy in -r...r {
                for dx in -r...r where dx != 0 || dy != 0 {
                    guard agreement(quick, dx, dy, atLeast: 0.9) >= 0.9 else { continue }
                    let score = agreement(samples, dx, dy, atLeast: 0.98)
                    if score >= 0.98, score > best?.score ?? 0 || (score == best?.score && abs(dx) + abs(dy) < abs(best!.dx) + abs(best!.dy)) {
                        best = (dx, dy, score)
                    }
                }
            }
            return best.map { ($0.dx, $0.dy) }
        }

        /// Both ways: each actual pixel is the expected one (dx, dy) back, and each expected
        /// pixel is found (dx, dy) on in the actual image. One way alone would take content
        /// that vanished for a shift onto empty background. The answer is 0 as soon as more
        /// disagree than a score of `atLeast` allows (most offsets fail on their first pixels).
        private func agreement(_ points: [(Int, Int)], _ dx: Int, _ dy: Int, atLeast: Double) -> Double {
            var checked = 0, agree = 0
            // At most two checks a point: more misses than this and `atLeast` cannot be met.
            let allowed = Int((1 - atLeast) * Double(2 * points.count))
            for (x, y) in points {
                for (from, to, sx, sy) in [(b, a, x - dx, y - dy), (a, b, x + dx, y + dy)] {
                    guard sx >= 0, sy >= 0, sx < width, sy < height else { continue }
                    checked += 1
                    if alike(from, index(x, y), to, index(sx, sy)) { agree += 1 } else if checked - agree > allowed { return 0 }
                }
            }
            return checked == 0 ? 0 : Double(agree) / Double(checked)
        }

        /// Anti-aliasing by another renderer, which pixelmatch's test (built for one image's
        /// own edges) can miss: 98% of the differing pixels sit on an edge in both images, and
        /// their value in each lies between the darkest and brightest of the other's 3x3
        /// neighbourhood (each channel, 16 levels of slack for a resampling filter's overshoot):
        /// a blend of the colours already there.
        func edgesOnly(in box: PixelRect) -> Bool {
            var differing = 0, blends = 0
            // No more differ than the box holds: past 2% of it that are not blends, no count
            // of the rest can make 98%.
            let allowed = box.width * box.height / 50
            for y in box.y..<(box.y + box.height) {
                for x in box.x..<(box.x + box.width) where !unchanged(index(x, y)) && !alike(a, index(x, y), b, index(x, y)) {
                    differing += 1
                    if blend(of: b, at: x, y, within: a) && blend(of: a, at: x, y, within: b) { blends += 1 } else if differing - blends > allowed { return false }
                }
            }
            return differing > 0 && Double(blends) >= 0.98 * Double(differing)
        }

        private func blend(of p: UnsafeBufferPointer<UInt8>, at x: Int, _ y: Int, within q: UnsafeBufferPointer<UInt8>) -> Bool {
            // Per channel, in registers: this runs for every differing pixel of the box.
            let pixel = { (b: UnsafeBufferPointer<UInt8>, j: Int) in SIMD4<Int32>(Int32(b[j]), Int32(b[j + 1]), Int32(b[j + 2]), Int32(b[j + 3])) }
            var low = SIMD4<Int32>(repeating: 255), high = SIMD4<Int32>(repeating: 0)
            for ny in max(0, y - 1)...min(height - 1, y + 1) {
                for nx in max(0, x - 1)...min(width - 1, x + 1) {
                    let n = pixel(q, index(nx, ny))
                    low = pointwiseMin(low, n)
                    high = pointwiseMax(high, n)
                }
            }
            // A flat neighbourhood has no edge to blend.
            guard any(high &- low .> 16) else { return false }
            let value = pixel(p, index(x, y))
            return all(value .>= low &- 16) && all(value .<= high &+ 16)
        }

        /// Same shapes, other colours: two neighbours alike in one image are alike in the
        /// other, for 99% of the pairs that touch a changed pixel (inside the box, one pixel
        /// more each way). Pairs of two unchanged pixels are left out: counted, they let a
        /// few new shapes scattered over a wide box pass for a recolouring.
        func sameShapes(in box: PixelRect) -> Bool {
            let x0 = max(0, box.x - 1), y0 = max(0, box.y - 1)
            let x1 = min(width - 1, box.x + box.width), y1 = min(height - 1, box.y + box.height)
            var touched = 0, lost = 0
            for y in y0...y1 {
                for x in x0...x1 {
                    let i = index(x, y), same = unchanged(i)
                    // The right and the lower neighbour.
                    if x < x1, !(same && unchanged(i + 4)) {
                        touched += 1
                        if alike(a, i, a, i + 4) != alike(b, i, b, i + 4) { lost += 1 }
                    }
                    if y < y1 {
                        let j = index(x, y + 1)
                        if !(same && unchanged(j)) {
                            touched += 1
                            if alike(a, i, a, j) != alike(b, i, b, j) { lost += 1 }
                        }
                    }
                }
            }
            return touched > 0 && Double(lost) <= 0.01 * Double(touched)
        }
    }
}
