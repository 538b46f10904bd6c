import Dispatch
import Support
import Synchronization

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
    /// `changes`, from the comparison, lets each test walk the changed pixels alone; without
    /// them each scans the box.
    package static func classify(_ expected: RGBAImage, _ actual: RGBAImage, result: DiffResult, options: DiffOptions,
                                 changes: ChangedPixels? = nil) -> DiffKind {
        guard expected.width == actual.width, expected.height == actual.height else { return .size }
        if result.differentPixels == 0 || result.countedLookAntialiased { return .antialiasing }
        guard let box = result.bounds else { return .antialiasing }
        let known = changes.flatMap { $0.covers(pixels: expected.width * expected.height) ? $0 : nil }
        @Sendable func withScene<T>(_ body: (Scene) -> T) -> T {
            Scene.with(expected, actual, threshold: options.threshold, changes: known, body)
        }
        // The three tests at once, the third in bands of rows, as one list of work on as many
        // cores (a list inside another ran its bands one after the other); the first test that
        // holds, in this order, wins.
        let bands = Scene.shapeBands(box, width: expected.width, height: expected.height)
        let found = Mutex<(shift: DiffKind?, edges: DiffKind?, pairs: [(touched: Int, lost: Int)])>(
            (nil, nil, Array(repeating: (0, 0), count: bands.count)))
        DispatchQueue.concurrentPerform(iterations: 2 + bands.count) { k in
            withScene { scene in
                switch k {
                case 0:
                    let kind = scene.shift(in: box).map { DiffKind.shifted(dx: $0.dx, dy: $0.dy) }
                    found.withLock { $0.shift = kind }
                case 1:
                    let kind: DiffKind? = scene.edgesOnly(in: box) ? .antialiasing : nil
                    found.withLock { $0.edges = kind }
                default:
                    let pairs = scene.shapePairs(box, rows: bands[k - 2])
                    found.withLock { $0.pairs[k - 2] = pairs }
                }
            }
        }
        return found.withLock { found in
            found.shift ?? found.edges ?? (Scene.sameShapes(found.pairs) ? .colour : .changed)
        }
    }

    /// `sameShapes`'s pair counts over the change's box, every band added: from the recorded
    /// `changes` when given (walked), else from the box scanned. Both must agree.
    static func shapePairs(_ expected: RGBAImage, _ actual: RGBAImage, box: PixelRect, threshold: Double,
                           changes: ChangedPixels?) -> (touched: Int, lost: Int) {
        Scene.with(expected, actual, threshold: threshold, changes: changes) { scene in
            Scene.shapeBands(box, width: expected.width, height: expected.height)
                .map { scene.shapePairs(box, rows: $0) }.reduce((0, 0)) { ($0.0 + $1.touched, $0.1 + $1.lost) }
        }
    }

    private struct Scene {
        let a: UnsafeBufferPointer<UInt8>
        let b: UnsafeBufferPointer<UInt8>
        let width: Int
        let height: Int
        let maxDelta: Double
        /// Which pixels' bytes differ, and which beyond the threshold, when the comparison
        /// recorded them.
        let changes: ChangedPixels?

        /// `body` with the scene of two same-size images, alike within `threshold`.
        static func with<T>(_ expected: RGBAImage, _ actual: RGBAImage, threshold: Double, changes: ChangedPixels?,
                            _ body: (Scene) -> T) -> T {
            expected.pixels.withUnsafeBufferPointer { a in
                actual.pixels.withUnsafeBufferPointer { b in
                    body(Scene(a: a, b: b, width: expected.width, height: expected.height,
                               maxDelta: ImageDiff.maxYIQDelta * threshold * threshold, changes: changes))
                }
            }
        }

        /// Whether the pixel at byte `i` is the same in both images (the common case: the
        /// tests below skip their colour arithmetic there).
        @inline(__always) func unchanged(_ i: Int) -> Bool { ImageDiff.sameWord(a, i, b, i) }

        /// Two pixels alike: equal bytes or a YIQ delta within the threshold.
        func alike(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ q: UnsafeBufferPointer<UInt8>, _ j: Int) -> Bool {
            if ImageDiff.sameWord(p, i, q, j) { return true }
            return abs(ImageDiff.colorDelta(p, i, q, j, yOnly: false)) <= maxDelta && abs(Int(p[i + 3]) - Int(q[j + 3])) <= 8
        }

        func index(_ x: Int, _ y: Int) -> Int { (y * width + x) * 4 }

        /// Calls `body` with each pixel of the box whose colours differ beyond the threshold
        /// (`alike` false), as an index (`y * width + x`) in reading order, until it answers
        /// false: the recorded changes walked when there are some, else the box scanned.
        @inline(__always)
        func forEachDiffering(in box: PixelRect, _ body: (Int) -> Bool) {
            for y in box.y..<(box.y + box.height) {
                let row = y * width
                if let changes {
                    // The comparison judged the colours; the alpha rule of `alike` is checked here.
                    let more = changes.forEachChanged(in: (row + box.x)..<(row + box.x + box.width)) { p in
                        guard changes.isOverThreshold(p) || abs(Int(a[p * 4 + 3]) - Int(b[p * 4 + 3])) > 8 else { return true }
                        return body(p)
                    }
                    if !more { return }
                    continue
                }
                for x in box.x..<(box.x + box.width) where !unchanged(index(x, y)) && !alike(a, index(x, y), b, index(x, y)) {
                    if !body(row + x) { return }
                }
            }
        }

        /// `forEachDiffering`'s pixels a bitmap word at a time, from the recorded changes:
        /// each word's first pixel and the bits of its differing pixels (none: skipped), so
        /// that counting them and picking a few passes most words whole.
        func forEachDifferingWord(in box: PixelRect, _ changes: ChangedPixels, _ body: (_ first: Int, _ bits: UInt64) -> Bool) {
            for y in box.y..<(box.y + box.height) {
                let row = y * width
                let more = changes.forEachWord(in: (row + box.x)..<(row + box.x + box.width)) { first, changed, over in
                    // Over the threshold, or (the alpha rule of `alike`) alpha apart by more than 8.
                    var bits = over, rest = changed & ~over
                    while rest != 0 {
                        let p = first | rest.trailingZeroBitCount
                        if abs(Int(a[p * 4 + 3]) - Int(b[p * 4 + 3])) > 8 { bits |= 1 << UInt64(p & 63) }
                        rest &= rest - 1
                    }
                    return bits == 0 || body(first, bits)
                }
                if !more { return }
            }
        }

        /// The offset that explains the change: the sampled differing pixels agree with the
        /// other image (dx, dy) away, checked first on 64 samples, then on up to 4,096; 98% must
        /// agree (pixels whose counterpart falls outside the image are skipped).
        func shift(in box: PixelRect) -> (dx: Int, dy: Int)? {
            // At most 4,096 of the differing pixels, spread over them: counted, then picked.
            var count = 0
            if let changes {
                forEachDifferingWord(in: box, changes) { _, bits in count += bits.nonzeroBitCount; return true }
            } else {
                forEachDiffering(in: box) { _ in count += 1; return true }
            }
            let step = max(1.0, Double(count) / 4096)
            // Unlabelled pairs, as `agreement` takes them (labelled ones would be converted,
            // array and all, at each of its 2,400 calls).
            var samples: [(Int, Int)] = []
            samples.reserveCapacity(min(count, 4096))
            var seen = 0
            let pick = { (p: Int) -> Bool in
                if Int(Double(samples.count) * step) == seen { samples.append((p % width, p / width)) }
                seen += 1
                return samples.count < 4096
            }
            if let changes {
                forEachDifferingWord(in: box, changes) { first, bits in
                    // A word holding no pick is passed whole (the next pick is never behind).
                    let n = bits.nonzeroBitCount
                    if Int(Double(samples.count) * step) >= seen + n {
                        seen += n
                        return true
                    }
                    var rest = bits
                    while rest != 0 {
                        guard pick(first | rest.trailingZeroBitCount) else { return false }
                        rest &= rest - 1
                    }
                    return true
                }
            } else {
                forEachDiffering(in: box, pick)
            }
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
            // The last pair of words judged: a recoloured area asks about one pair again and
            // again. 0 (two equal words) is alike, as it stands.
            var lastPair: UInt64 = 0, lastAlike = true
            // One direction of one point: false once too many disagree.
            let check = { (from: UnsafeBufferPointer<UInt8>, to: UnsafeBufferPointer<UInt8>, x: Int, y: Int, sx: Int, sy: Int) -> Bool in
                guard sx >= 0, sy >= 0, sx < width, sy < height else { return true }
                checked += 1
                let (i, j) = (index(x, y), index(sx, sy))
                // `alike` is symmetric: one key for both directions.
                let (u, v) = (ImageDiff.word(from, i), ImageDiff.word(to, j))
                let pair = UInt64(min(u, v)) << 32 | UInt64(max(u, v))
                if pair != lastPair { (lastPair, lastAlike) = (pair, alike(from, i, to, j)) }
                if lastAlike { agree += 1 } else if checked - agree > allowed { return false }
                return true
            }
            for (x, y) in points {
                guard check(b, a, x, y, x - dx, y - dy), check(a, b, x, y, x + dx, y + dy) else { return 0 }
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
            var tooMany = false
            forEachDiffering(in: box) { p in
                let (x, y) = (p % width, p / width)
                differing += 1
                if blend(of: b, at: x, y, within: a) && blend(of: a, at: x, y, within: b) { blends += 1 }
                tooMany = differing - blends > allowed
                return !tooMany
            }
            return !tooMany && differing > 0 && Double(blends) >= 0.98 * Double(differing)
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
        /// more each way), as counted by `shapePairs` over `shapeBands`. Pairs of two unchanged
        /// pixels are left out: counted, they let a few new shapes scattered over a wide box
        /// pass for a recolouring.
        static func sameShapes(_ bands: [(touched: Int, lost: Int)]) -> Bool {
            let (touched, lost) = bands.reduce((0, 0)) { ($0.0 + $1.touched, $0.1 + $1.lost) }
            return touched > 0 && Double(lost) <= 0.01 * Double(touched)
        }

        /// `sameShapes`'s box: the change's, one pixel more each way, inside the image.
        private static func shapeBox(_ box: PixelRect, width: Int, height: Int) -> (x0: Int, x1: Int, y0: Int, y1: Int) {
            (max(0, box.x - 1), min(width - 1, box.x + box.width), max(0, box.y - 1), min(height - 1, box.y + box.height))
        }

        /// The rows of `sameShapes`'s box (the change's, one pixel more each way) in bands
        /// counted apart, cut as the comparison cuts an image (`DiffScan.bands`: one per core
        /// for a large box): each pair is counted on its first pixel's row, so the bands are
        /// independent.
        static func shapeBands(_ box: PixelRect, width: Int, height: Int) -> [ClosedRange<Int>] {
            let (x0, x1, y0, y1) = shapeBox(box, width: width, height: height)
            return DiffScan.bands(height: y1 - y0 + 1, pixels: (x1 - x0 + 1) * (y1 - y0 + 1)).map { (y0 + $0.lowerBound)...(y0 + $0.upperBound - 1) }
        }

        /// `sameShapes`'s pairs that start on `rows` of the box: how many touch a changed
        /// pixel, and how many of those are alike in one image only.
        func shapePairs(_ box: PixelRect, rows: ClosedRange<Int>) -> (touched: Int, lost: Int) {
            let (x0, x1, y0, y1) = Self.shapeBox(box, width: width, height: height)
            var touched = 0, lost = 0
            let count = { (i: Int, j: Int) in
                touched += 1
                if alike(a, i, a, j) != alike(b, i, b, j) { lost += 1 }
            }
            if let changes {
                // From each changed pixel to its four neighbours; a pair of two changed pixels
                // once, from the first of them: right and down always, left and up only when
                // that neighbour is unchanged. The changed pixels are taken as runs in a row.
                let rowBytes = width * 4
                let pa = UnsafeRawPointer(a.baseAddress!), pb = UnsafeRawPointer(b.baseAddress!)
                let four = { (p: UnsafeRawPointer, i: Int) in p.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt32>.self) }
                for y in rows {
                    let row = y * width
                    changes.forEachWord(in: (row + x0)..<(row + x1 + 1)) { first, bits, _ in
                        var rest = bits
                        while rest != 0 {
                            let offset = rest.trailingZeroBitCount
                            let length = (~(rest >> UInt64(offset))).trailingZeroBitCount
                            rest = offset + length == 64 ? 0 : rest & (~0 << UInt64(offset + length))
                            var x = first + offset - row
                            let end = x + length
                            // Inside a run, only its first pixel's left neighbour can be unchanged.
                            if x > x0, unchanged((row + x - 1) * 4) { count((row + x) * 4, (row + x - 1) * 4) }
                            while x < end {
                                let i = (row + x) * 4
                                // Four pixels inside one colour in each image (right and down
                                // alike in both) with every pixel above changed: eight pairs, none lost.
                                if x + 4 <= end, x + 3 < x1, y < y1 {
                                    let ca = four(pa, i), cb = four(pb, i)
                                    if ca == four(pa, i + 4), ca == four(pa, i + rowBytes), cb == four(pb, i + 4), cb == four(pb, i + rowBytes),
                                       y == y0 || !any(four(pa, i - rowBytes) .== four(pb, i - rowBytes)) {
                                        touched += 8
                                        x += 4
                                        continue
                                    }
                                }
                                if x < x1 { count(i, i + 4) }
                                if y < y1 { count(i, i + rowBytes) }
                                if y > y0, unchanged(i - rowBytes) { count(i, i - rowBytes) }
                                x += 1
                            }
                        }
                        return true
                    }
                }
            } else {
                for y in rows {
                    for x in x0...x1 {
                        let i = index(x, y), same = unchanged(i)
                        // The right and the lower neighbour.
                        if x < x1, !(same && unchanged(i + 4)) { count(i, i + 4) }
                        if y < y1, case let j = index(x, y + 1), !(same && unchanged(j)) { count(i, j) }
                    }
                }
            }
            return (touched, lost)
        }
    }
}
