import Dispatch
import Glibc
import Support

/// The pixels whose four bytes differ between two images compared at the same size, and of
/// them those whose colours differ beyond the threshold (the comparison has worked that out
/// already): one bit a pixel each (pixel `y * width + x`), 2 bits a pixel in all (2 MB for a 4K
/// pair, whatever changed). What the diff classifier walks instead of the whole changed box (40
/// small changes scattered over a 4K screen span nearly all of it); empty when not recorded.
package struct ChangedPixels: Sendable {
    /// Bit p set: pixel p's bytes differ.
    package var changed: [UInt64] = []
    /// Bit p set: pixel p's colours differ beyond the threshold.
    package var overThreshold: [UInt64] = []

    package init() {}

    /// Bitmaps for `pixels` pixels, all clear.
    init(pixels: Int) {
        changed = [UInt64](repeating: 0, count: (pixels + 63) / 64)
        overThreshold = changed
    }

    /// Whether the bitmaps were recorded (for an image of `pixels` pixels).
    package func covers(pixels: Int) -> Bool { changed.count == (pixels + 63) / 64 && pixels > 0 }

    /// Whether pixel `p`'s bytes differ.
    @inline(__always) package func isChanged(_ p: Int) -> Bool { changed[p >> 6] & (1 << UInt64(p & 63)) != 0 }
    /// Whether pixel `p`'s colours differ beyond the threshold.
    @inline(__always) package func isOverThreshold(_ p: Int) -> Bool { overThreshold[p >> 6] & (1 << UInt64(p & 63)) != 0 }

    /// Calls `body` with each changed pixel index in `range`, ascending, until it answers false
    /// (then returns false). Words with no bit set are passed in one test.
    @inline(__always) @discardableResult
    package func forEachChanged(in range: Range<Int>, _ body: (Int) -> Bool) -> Bool {
        guard !range.isEmpty else { return true }
        var word = range.lowerBound >> 6
        let lastWord = (range.upperBound - 1) >> 6
        while word <= lastWord {
            var bits = changed[word]
            if word == range.lowerBound >> 6 { bits &= ~0 << UInt64(range.lowerBound & 63) }
            if word == lastWord, range.upperBound & 63 != 0 { bits &= ~(~0 << UInt64(range.upperBound & 63)) }
            while bits != 0 {
                let p = word << 6 | bits.trailingZeroBitCount
                guard body(p) else { return false }
                bits &= bits - 1
            }
            word += 1
        }
        return true
    }

    /// Calls `body` with each bitmap word that holds pixels of `range` (its first pixel's
    /// index, then its changed and over-threshold bits, both cleared outside `range`), in
    /// order, until it answers false (then returns false).
    @inline(__always) @discardableResult
    package func forEachWord(in range: Range<Int>, _ body: (_ first: Int, _ changed: UInt64, _ over: UInt64) -> Bool) -> Bool {
        guard !range.isEmpty else { return true }
        let firstWord = range.lowerBound >> 6, lastWord = (range.upperBound - 1) >> 6
        for word in firstWord...lastWord {
            var mask = ~UInt64(0)
            if word == firstWord { mask &= ~0 << UInt64(range.lowerBound & 63) }
            if word == lastWord, range.upperBound & 63 != 0 { mask &= ~(~0 << UInt64(range.upperBound & 63)) }
            guard body(word << 6, changed[word] & mask, overThreshold[word] & mask) else { return false }
        }
        return true
    }

    /// A band's bitmaps ORed into these: the band's first pixel is `first` (a band's bitmaps
    /// start at the word holding its first pixel, so neighbouring bands may share a word).
    mutating func merge(_ band: ChangedPixels, first: Int) {
        let offset = first >> 6
        for (k, bits) in band.changed.enumerated() where bits != 0 {
            changed[offset + k] |= bits
            overThreshold[offset + k] |= band.overThreshold[k]
        }
    }
}

/// One comparison's rule applied to a band of rows: what `ImageDiff.compare` runs on every core
/// for a large image and merges.
struct DiffScan {
    let width: Int
    let height: Int
    let common: (width: Int, height: Int)
    let sameSize: Bool
    let maxDelta: Double
    let maxAlphaDelta: Int
    let options: DiffOptions
    /// Whether the changed pixels are recorded.
    let recordsChanges: Bool

    /// Counts, bounds and changed pixels of one band.
    struct Band {
        var different = 0
        var antialiased = 0
        /// A counted pixel that does not look like anti-aliasing was seen.
        var plainCounted = false
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var rowsDiffer = false
        /// This band's changed pixels, its bitmaps starting at the word of `firstPixel`.
        var changes = ChangedPixels()
        /// The bitmap word being gathered (-1: none) and its bits so far: stored once a word
        /// (stored a pixel at a time, each store checked the arrays' uniqueness, a tenth of a
        /// pair whose every pixel changed).
        private var word = -1, changedBits: UInt64 = 0, overBits: UInt64 = 0
        var firstPixel = 0
        /// Past the band's last pixel.
        var lastPixel = 0
        /// The last differing pair judged (expected word << 32 | actual word) and whether its
        /// colours differ over the threshold: a changed area is mostly runs of one pair (a
        /// background that changed colour), judged once. 0 is two equal words, never asked.
        var lastPair: UInt64 = 0
        var lastPairOver = false

        /// Pixel `p` (of the image) changed, its colours over the threshold or not. The
        /// bitmaps are made at the first change: a band with none allocates nothing.
        @inline(__always)
        mutating func record(_ pixel: Int, over: Bool) { record(pixel, run: 1, over: over) }

        /// Pixels `pixel..<pixel + run` changed, alike over the threshold or not.
        @inline(__always)
        mutating func record(_ pixel: Int, run: Int, over: Bool) {
            if changes.changed.isEmpty { changes = ChangedPixels(pixels: lastPixel - (firstPixel & ~63)) }
            var p = pixel - (firstPixel & ~63), left = run
            while left > 0 {
                if p >> 6 != word {
                    endRow()
                    word = p >> 6
                }
                // The run's part inside this word.
                let taken = min(left, 64 - (p & 63))
                let bits: UInt64 = (taken == 64 ? ~0 : (1 << UInt64(taken)) - 1) << UInt64(p & 63)
                changedBits |= bits
                if over { overBits |= bits }
                p += taken
                left -= taken
            }
        }

        /// Pixels `x..<x + length` of row `y` counted as differing.
        @inline(__always)
        mutating func count(_ x: Int, _ length: Int, _ y: Int) {
            different += length
            minX = min(minX, x); maxX = max(maxX, x + length - 1)
            minY = min(minY, y); maxY = max(maxY, y)
        }

        /// Stores the word being gathered (at the end of each row scanned).
        mutating func endRow() {
            guard word >= 0 else { return }
            changes.changed[word] |= changedBits
            changes.overThreshold[word] |= overBits
            (word, changedBits, overBits) = (-1, 0, 0)
        }

        /// The bands of an image in order, as one.
        static func merged(_ bands: [Band]) -> Band {
            var all = Band()
            for band in bands {
                all.different += band.different
                all.antialiased += band.antialiased
                all.plainCounted = all.plainCounted || band.plainCounted
                all.minX = min(all.minX, band.minX); all.minY = min(all.minY, band.minY)
                all.maxX = max(all.maxX, band.maxX); all.maxY = max(all.maxY, band.maxY)
                all.rowsDiffer = all.rowsDiffer || band.rowsDiffer
            }
            return all
        }
    }

    /// Scans `rows` of the two images' bytes; `panel` (width x height RGBA bytes) receives the
    /// difference picture when given, which makes every pixel visited.
    func scan(_ rows: Range<Int>, _ expected: [UInt8], _ actual: [UInt8], panel: UnsafeMutablePointer<[UInt8]>?) -> Band {
        expected.withUnsafeBufferPointer { a in
            actual.withUnsafeBufferPointer { b in
                guard let panel else { return scan(rows, a, b, panel: nil) }
                return panel.pointee.withUnsafeMutableBufferPointer { scan(rows, a, b, panel: $0.baseAddress) }
            }
        }
    }

    private func scan(_ rows: Range<Int>, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                      panel: UnsafeMutablePointer<UInt8>?) -> Band {
        var band = Band()
        band.firstPixel = rows.lowerBound * width
        band.lastPixel = rows.upperBound * width
        let rowBytes = width * 4
        for y in rows {
            // Most rows of a golden run are unchanged: one memcmp passes them (all their pixels
            // equal, so nothing in them can count).
            let rowEqual = sameSize && memcmp(a.baseAddress! + y * rowBytes, b.baseAddress! + y * rowBytes, rowBytes) == 0
            if !rowEqual { band.rowsDiffer = true }
            if panel == nil && rowEqual { continue }
            if panel == nil && sameSize {
                changedRow(y, a, b, &band)
                continue
            }
            // The last expected word faded, and its grey (runs of one colour fade once).
            var fadedWord: UInt32?, faded: UInt8 = 0
            for x in 0..<width {
                let i = (y * width + x) * 4
                let mark = judge(x, y, a, b, same: ImageDiff.sameWord(a, i, b, i), &band)
                guard let panel else { continue }
                if mark == .none {
                    // Faded grey of the expected pixel, so the picture stays readable.
                    if fadedWord != ImageDiff.word(a, i) {
                        fadedWord = ImageDiff.word(a, i)
                        let luma = ImageDiff.blendOverWhite(ImageDiff.brightness(a, i), alpha: Double(a[i + 3]) / 255)
                        faded = UInt8(Checked.clamped(255 + (luma - 255) * 0.1, .toNearestOrAwayFromZero, in: 0...255))
                    }
                    (panel[i], panel[i + 1], panel[i + 2], panel[i + 3]) = (faded, faded, faded, 255)
                } else {
                    (panel[i], panel[i + 1], panel[i + 2], panel[i + 3]) = (255, mark == .antialiased ? 255 : 0, 0, 255)
                }
            }
            band.endRow()
        }
        return band
    }

    /// A row of two same-size images known to differ somewhere: equal pixels are passed eight
    /// at a time (four 8-byte words compared at once), and only the others judged.
    private func changedRow(_ y: Int, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ band: inout Band) {
        let pa = UnsafeRawPointer(a.baseAddress!), pb = UnsafeRawPointer(b.baseAddress!)
        let start = y * width * 4
        let word = { (p: UnsafeRawPointer, at: Int) in p.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        var x = 0
        while x < width {
            let i = start + x * 4
            if x + 8 <= width {
                let differ = (word(pa, i) ^ word(pb, i)) | (word(pa, i + 8) ^ word(pb, i + 8))
                    | (word(pa, i + 16) ^ word(pb, i + 16)) | (word(pa, i + 24) ^ word(pb, i + 24))
                if differ == 0 {
                    x += 8
                    continue
                }
                // A run of one changed pair (a changed background): the groups of eight from x
                // that are pixel x's pair in each image (it differs: some pixel here does) and
                // cannot be anti-aliasing, or need not be asked (counting it too, after a plain
                // pixel no neighbourhood is asked about).
                if options.ignore.isEmpty {
                    let unasked = options.countAntialiasing && band.plainCounted
                    let pair = (SIMD8(repeating: pa.loadUnaligned(fromByteOffset: i, as: UInt32.self)),
                                SIMD8(repeating: pb.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
                    var end = x
                    while end + 8 <= width, case let j = start + end * 4, pa.loadUnaligned(fromByteOffset: j, as: SIMD8<UInt32>.self) == pair.0,
                          pb.loadUnaligned(fromByteOffset: j, as: SIMD8<UInt32>.self) == pair.1, unasked || flatRun(y, j, pa, pb) {
                        end += 8
                    }
                    if end > x {
                        counted(run: x, end - x, y, i, a, b, &band)
                        x = end
                        continue
                    }
                }
            }
            for k in x..<min(x + 8, width) where !ImageDiff.sameWord(a, start + k * 4, b, start + k * 4) {
                _ = judge(k, y, a, b, same: false, &band)
            }
            x += 8
        }
        band.endRow()
    }

    /// None of the eight pixels from (x, y) (byte `i`, one colour in each image) can be
    /// anti-aliasing: with the row above them that colour too in each image, every one has
    /// three identical neighbours (beside it in the run, above it, above beside it), which
    /// `ImageDiff.isAntialiased` takes for no edge.
    @inline(__always)
    private func flatRun(_ y: Int, _ i: Int, _ pa: UnsafeRawPointer, _ pb: UnsafeRawPointer) -> Bool {
        guard y > 0 else { return false }
        let flat = { (p: UnsafeRawPointer) in
            p.loadUnaligned(fromByteOffset: i - width * 4, as: SIMD8<UInt32>.self)
                == SIMD8(repeating: p.loadUnaligned(fromByteOffset: i, as: UInt32.self))
        }
        return flat(pa) && flat(pb)
    }

    /// `judge` for `length` pixels from (x, y) (byte `i`) that are one pair of colours and
    /// that cannot be anti-aliasing or need not be asked (counting it too, once a plain pixel
    /// was counted), with nothing ignored: the pair judged once, the run recorded and counted
    /// (or passed) together. Same-size images: nothing lies outside.
    @inline(__always)
    private func counted(run x: Int, _ length: Int, _ y: Int, _ i: Int, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                         _ band: inout Band) {
        let over = colourOver(i, a, b, &band)
        if recordsChanges { band.record(y * width + x, run: length, over: over) }
        guard over || abs(Int(a[i + 3]) - Int(b[i + 3])) > maxAlphaDelta else { return }
        band.count(x, length, y)
        band.plainCounted = true
    }

    /// Whether the differing pixel at byte `i` differs in colour beyond the threshold; the
    /// band keeps the last pair's verdict (a changed area is mostly runs of one pair).
    @inline(__always)
    private func colourOver(_ i: Int, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ band: inout Band) -> Bool {
        let pair = UInt64(ImageDiff.word(a, i)) << 32 | UInt64(ImageDiff.word(b, i))
        if pair != band.lastPair {
            band.lastPair = pair
            band.lastPairOver = abs(ImageDiff.colorDelta(a, i, b, i, yOnly: false)) > maxDelta
        }
        return band.lastPairOver
    }

    enum Mark { case none, counted, antialiased }

    /// One pixel: recorded when its bytes differ, then counted, taken as anti-aliasing or passed.
    @inline(__always)
    private func judge(_ x: Int, _ y: Int, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, same: Bool,
                       _ band: inout Band) -> Mark {
        let i = (y * width + x) * 4
        let outside = x >= common.width || y >= common.height
        let over = !same && colourOver(i, a, b, &band)
        if !same && recordsChanges { band.record(y * width + x, over: over) }
        guard outside || over || (!same && abs(Int(a[i + 3]) - Int(b[i + 3])) > maxAlphaDelta),
              options.ignore.isEmpty || !options.ignore.contains(where: { $0.contains(x, y) }) else { return .none }
        // Counting anti-aliasing too, the test only says whether every counted pixel looks like
        // it: after the first that does not, it cannot change the answer and is skipped.
        let antialiased = !outside && !(options.countAntialiasing && band.plainCounted)
            && (ImageDiff.isAntialiased(a, x, y, width, height, other: b) || ImageDiff.isAntialiased(b, x, y, width, height, other: a))
        if antialiased && !options.countAntialiasing {
            band.antialiased += 1
            return .antialiased
        }
        band.count(x, 1, y)
        if !antialiased { band.plainCounted = true }
        return .counted
    }

    /// The bands a `height`-row image is cut into: one per core for a large image (each band's
    /// work is independent), one for a small one. Inside a run that already keeps every core
    /// busy (a folder of pairs), Dispatch runs the bands one after the other.
    static func bands(height: Int, pixels: Int) -> [Range<Int>] {
        let cores = max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        let count = pixels >= 1 << 20 ? min(cores, height) : 1
        return (0..<count).map { k in (height * k / count)..<(height * (k + 1) / count) }
    }
}
