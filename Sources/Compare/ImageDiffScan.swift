import Dispatch
import Glibc
import Support

/// The pixels whose four bytes differ between two images compared at the same size, in
/// order: what the diff classifier walks instead of the whole changed box (40 small changes
/// scattered over a 4K screen span nearly all of it). Each entry is a pixel index (`y * width +
/// x`, 31 bits) with `overThreshold` set when its colours differ by more than the threshold
/// (the comparison has worked that out already).
package struct ChangedPixels: Sendable {
    /// The entries, ascending by index.
    package var entries: [UInt32] = []
    /// False when there were more than `limit` of them (or the image has 2^31 pixels or more):
    /// `entries` is then partial and a reader scans the box itself.
    package var complete = false
    /// The most entries kept (4 MB).
    package static let limit = 1 << 20
    /// The bit of an entry that says its colours differ beyond the threshold.
    package static let overThreshold: UInt32 = 1 << 31

    package init(entries: [UInt32] = [], complete: Bool = false) {
        self.entries = entries
        self.complete = complete
    }

    /// The pixel index of an entry.
    @inline(__always) package static func index(_ entry: UInt32) -> Int { Int(entry & ~overThreshold) }
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
    /// Changes are recorded only when every pixel index fits in 31 bits.
    let recordsChanges: Bool

    /// Counts, bounds and changed pixels of one band.
    struct Band {
        var different = 0
        var antialiased = 0
        var antialiasLike = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var rowsDiffer = false
        var changed: [UInt32] = []
        var overflow = false

        /// The bands of an image in order, as one.
        static func merged(_ bands: [Band]) -> Band {
            var all = Band()
            for band in bands {
                all.different += band.different
                all.antialiased += band.antialiased
                all.antialiasLike += band.antialiasLike
                all.minX = min(all.minX, band.minX); all.minY = min(all.minY, band.minY)
                all.maxX = max(all.maxX, band.maxX); all.maxY = max(all.maxY, band.maxY)
                all.rowsDiffer = all.rowsDiffer || band.rowsDiffer
                all.overflow = all.overflow || band.overflow || all.changed.count + band.changed.count > ChangedPixels.limit
                if !all.overflow { all.changed += band.changed }
            }
            if all.overflow { all.changed = [] }
            return all
        }
    }

    /// Scans `rows` of the two images' bytes; `panel` (width x height RGBA bytes) receives the difference picture when
    /// given, which makes every pixel visited.
    func scan(_ rows: Range<Int>, _ expected: [UInt8], _ actual: [UInt8], panel: UnsafeMutablePointer<[UInt8]>?, changeLimit: Int) -> Band {
        expected.withUnsafeBufferPointer { a in
            actual.withUnsafeBufferPointer { b in
                guard let panel else { return scan(rows, a, b, panel: nil, changeLimit: changeLimit) }
                return panel.pointee.withUnsafeMutableBufferPointer { scan(rows, a, b, panel: $0.baseAddress, changeLimit: changeLimit) }
            }
        }
    }

    private func scan(_ rows: Range<Int>, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                      panel: UnsafeMutablePointer<UInt8>?, changeLimit: Int) -> Band {
        var band = Band()
        let rowBytes = width * 4
        for y in rows {
            // Most rows of a golden run are unchanged: one memcmp passes them (all their pixels
            // equal, so nothing in them can count).
            let rowEqual = sameSize && memcmp(a.baseAddress! + y * rowBytes, b.baseAddress! + y * rowBytes, rowBytes) == 0
            if !rowEqual { band.rowsDiffer = true }
            if panel == nil && rowEqual { continue }
            if panel == nil && sameSize {
                changedRow(y, a, b, &band, changeLimit)
                continue
            }
            for x in 0..<width {
                let i = (y * width + x) * 4
                let mark = judge(x, y, a, b, same: ImageDiff.sameWord(a, b, i), &band, changeLimit)
                guard let panel else { continue }
                if mark == .none {
                    // Faded grey of the expected pixel, so the picture stays readable.
                    let luma = 255 + (ImageDiff.brightness(a, i) - 255) * (Double(a[i + 3]) / 255)
                    let faded = UInt8(max(0, min(255, 255 + (luma - 255) * 0.1)).rounded())
                    (panel[i], panel[i + 1], panel[i + 2], panel[i + 3]) = (faded, faded, faded, 255)
                } else {
                    (panel[i], panel[i + 1], panel[i + 2], panel[i + 3]) = (255, mark == .antialiased ? 255 : 0, 0, 255)
                }
            }
        }
        return band
    }

    /// A row of two same-size images known to differ somewhere: equal pixels are passed eight
    /// at a time (four 8-byte words compared at once), and only the others judged.
    private func changedRow(_ y: Int, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ band: inout Band, _ changeLimit: Int) {
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
            }
            for k in x..<min(x + 8, width) where !ImageDiff.sameWord(a, b, start + k * 4) {
                _ = judge(k, y, a, b, same: false, &band, changeLimit)
            }
            x += 8
        }
    }

    enum Mark { case none, counted, antialiased }

    /// One pixel: recorded when its bytes differ, then counted, taken as anti-aliasing or passed.
    @inline(__always)
    private func judge(_ x: Int, _ y: Int, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, same: Bool,
                       _ band: inout Band, _ changeLimit: Int) -> Mark {
        let i = (y * width + x) * 4
        let outside = x >= common.width || y >= common.height
        let colourOver = !same && abs(ImageDiff.colorDelta(a, i, b, i, yOnly: false)) > maxDelta
        if !same && recordsChanges && !band.overflow {
            if band.changed.count < changeLimit {
                band.changed.append(UInt32(y * width + x) | (colourOver ? ChangedPixels.overThreshold : 0))
            } else {
                band.overflow = true
            }
        }
        guard outside || colourOver || (!same && abs(Int(a[i + 3]) - Int(b[i + 3])) > maxAlphaDelta),
              !options.ignore.contains(where: { $0.contains(x, y) }) else { return .none }
        let antialiased = !outside && (ImageDiff.isAntialiased(a, x, y, width, height, other: b)
                                       || ImageDiff.isAntialiased(b, x, y, width, height, other: a))
        if antialiased && !options.countAntialiasing {
            band.antialiased += 1
            return .antialiased
        }
        band.different += 1
        if antialiased { band.antialiasLike += 1 }
        band.minX = min(band.minX, x); band.maxX = max(band.maxX, x)
        band.minY = min(band.minY, y); band.maxY = max(band.maxY, y)
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
