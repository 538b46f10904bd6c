import Dispatch
import Support
import Synchronization
/// A rectangle in pixels.
package struct PixelRect: Equatable, Sendable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `x,y,w,h`: whole numbers from 0 (to 10^9), the size positive.
    package init(parsing text: String) throws(OptionError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmed) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              [x, y, w, h].allSatisfy({ (0...1_000_000_000).contains($0) }), w > 0, h > 0 else {
            throw OptionError("'\(text)' is not x,y,w,h with whole numbers from 0 and a positive size")
        }
        self.init(x: x, y: y, width: w, height: h)
    }

    func contains(_ px: Int, _ py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}

/// How pixels are judged: pixelmatch's YIQ rule counting pixels (with hlrender's alpha rule),
/// or one structural-similarity score per image.
package enum DiffMetric: String, CaseIterable, Sendable {
    case pixelmatch, ssim

    /// The name and version that reports print, so a verdict can be traced to its rule.
    package var version: String {
        switch self {
        case .pixelmatch: "pixelmatch-7-yiq (YIQ delta, anti-aliasing detection, alpha rule)"
        case .ssim: SSIM.version
        }
    }
}

package struct DiffOptions: Sendable {
    /// Which metric decides: pixels over `threshold` counted against the limits, or the SSIM
    /// score against `minSSIM`.
    package var metric: DiffMetric = .pixelmatch
    /// With the SSIM metric, the lowest score that still passes.
    package var minSSIM: Double = 0.99
    /// 0...1: the largest perceptual (YIQ) delta still taken as equal, as pixelmatch's.
    package var threshold: Double = 0.1
    /// Count pixels that look like anti-aliasing too.
    package var countAntialiasing = false
    package var ignore: [PixelRect] = []
    package init() {}
}

package struct DiffResult: Equatable, Sendable {
    package var width: Int
    package var height: Int
    /// Pixels over the threshold that are not anti-aliasing (or all of them with countAA).
    package var differentPixels: Int
    /// Pixels over the threshold taken as anti-aliasing and not counted.
    package var antialiasedPixels: Int
    /// Every counted pixel looks like anti-aliasing all the same (with `countAntialiasing`;
    /// false without, and with none counted): what tells an anti-aliasing-only change from a
    /// real one.
    package var countedLookAntialiased = false
    /// Bounding box of the counted pixels, nil when none.
    package var bounds: PixelRect?
    package var identical: Bool
    /// The SSIM score, when that metric was asked for.
    package var ssim: Double?

    package var ratio: Double { width * height == 0 ? 0 : Double(differentPixels) / Double(width * height) }

    package init(width: Int, height: Int, differentPixels: Int, antialiasedPixels: Int, bounds: PixelRect?, identical: Bool) {
        self.width = width
        self.height = height
        self.differentPixels = differentPixels
        self.antialiasedPixels = antialiasedPixels
        self.bounds = bounds
        self.identical = identical
    }
}

/// Two images whose comparison canvas (the larger size in each direction) is over the pixel
/// limit: refused before anything that size is allocated or walked.
package struct ComparisonTooLarge: Error, Equatable, CustomStringConvertible, Sendable {
    package let width: Int
    package let height: Int
    package let limit: Int
    package var description: String {
        "comparing needs a \(width)x\(height) canvas, over the limit of \(limit) pixels"
    }
}

/// Per-pixel perceptual comparison in YIQ space with alpha blended over white, and
/// anti-aliasing detection by each pixel's neighbourhood of brightness: the metric of
/// pixelmatch 7 (Mapbox; its YIQ rule, before the OKLab one on its main branch), written from its description, with one rule on top: a pixel whose
/// alphas differ by more than the threshold counts as different even when the blended colours
/// agree (a transparent golden is not an opaque white render).
package enum ImageDiff {
    /// The largest possible YIQ delta (black vs white).
    static let maxYIQDelta = 35215.0

    /// Compares two images. `diff` receives the difference panel when asked: expected faded to
    /// grey, counted pixels red, anti-aliasing pixels yellow. Images of different sizes are
    /// compared on the larger canvas, where a pixel outside either image counts as different;
    /// that canvas must stay within `maxPixels` (two small images of opposite shapes would
    /// otherwise ask for a huge one). `changes` receives the pixels whose bytes differ (what
    /// `DiffClassifier` then walks). A large image is compared in bands, one per core.
    package static func compare(_ expected: RGBAImage, _ actual: RGBAImage, options: DiffOptions = DiffOptions(), maxPixels: Int,
                               diffPanel: UnsafeMutablePointer<RGBAImage>? = nil,
                               changes: UnsafeMutablePointer<ChangedPixels>? = nil) throws(ComparisonTooLarge) -> DiffResult {
        let width = max(expected.width, actual.width), height = max(expected.height, actual.height)
        guard Checked.pixels(width, height, within: maxPixels) else {
            throw ComparisonTooLarge(width: width, height: height, limit: maxPixels)
        }
        let sameSize = expected.width == actual.width && expected.height == actual.height
        let a0 = sameSize ? expected : expected.padded(width: width, height: height)
        let b0 = sameSize ? actual : actual.padded(width: width, height: height)
        let scan = DiffScan(width: width, height: height,
                            common: (width: min(expected.width, actual.width), height: min(expected.height, actual.height)),
                            sameSize: sameSize, maxDelta: maxYIQDelta * options.threshold * options.threshold,
                            maxAlphaDelta: Checked.clamped(options.threshold * 255, .down, in: 0...255), options: options,
                            recordsChanges: changes != nil && sameSize)
        var panel = diffPanel.map { _ in RGBAImage(width: width, height: height) }
        // The panel is drawn in one band (it is asked for by a person looking at one pair).
        let bands = panel == nil ? DiffScan.bands(height: height, pixels: width * height) : [0..<height]
        let found = Mutex([DiffScan.Band?](repeating: nil, count: bands.count))
        if panel != nil {
            let band = scan.scan(bands[0], a0.pixels, b0.pixels, panel: &panel!.pixels)
            found.withLock { $0[0] = band }
        } else {
            DispatchQueue.concurrentPerform(iterations: bands.count) { k in
                let band = scan.scan(bands[k], a0.pixels, b0.pixels, panel: nil)
                found.withLock { $0[k] = band }
            }
        }
        let done = found.withLock { $0.map { $0! } }
        let all = DiffScan.Band.merged(done)
        var result = DiffResult(width: width, height: height, differentPixels: all.different, antialiasedPixels: all.antialiased,
                                bounds: nil, identical: sameSize && !all.rowsDiffer)
        result.countedLookAntialiased = options.countAntialiasing && all.different > 0 && !all.plainCounted
        if all.maxX >= 0 { result.bounds = PixelRect(x: all.minX, y: all.minY, width: all.maxX - all.minX + 1, height: all.maxY - all.minY + 1) }
        if let diffPanel, let panel { diffPanel.pointee = panel }
        if let changes {
            var merged = ChangedPixels()
            if scan.recordsChanges && done.contains(where: { !$0.changes.changed.isEmpty }) {
                merged = ChangedPixels(pixels: width * height)
                for band in done where !band.changes.changed.isEmpty { merged.merge(band.changes, first: band.firstPixel) }
            }
            changes.pointee = merged
        }
        return result
    }

    static func blendOverWhite(_ c: Double, alpha: Double) -> Double { 255 + (c - 255) * alpha }

    static func brightness(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Double {
        0.29889531 * Double(p[i]) + 0.58662247 * Double(p[i + 1]) + 0.11448223 * Double(p[i + 2])
    }

    /// Squared YIQ distance (signed by which is brighter); `yOnly` compares brightness alone.
    static func colorDelta(_ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ b: UnsafeBufferPointer<UInt8>, _ j: Int,
                           yOnly: Bool) -> Double {
        let aa = Double(a[i + 3]) / 255, ba = Double(b[j + 3]) / 255
        let r1 = blendOverWhite(Double(a[i]), alpha: aa), g1 = blendOverWhite(Double(a[i + 1]), alpha: aa)
        let b1 = blendOverWhite(Double(a[i + 2]), alpha: aa)
        let r2 = blendOverWhite(Double(b[j]), alpha: ba), g2 = blendOverWhite(Double(b[j + 1]), alpha: ba)
        let b2 = blendOverWhite(Double(b[j + 2]), alpha: ba)
        let y1 = 0.29889531 * r1 + 0.58662247 * g1 + 0.11448223 * b1
        let y2 = 0.29889531 * r2 + 0.58662247 * g2 + 0.11448223 * b2
        let dy = y1 - y2
        if yOnly { return dy }
        let di = (0.59597799 * r1 - 0.27417610 * g1 - 0.32180189 * b1) - (0.59597799 * r2 - 0.27417610 * g2 - 0.32180189 * b2)
        let dq = (0.21147017 * r1 - 0.52261711 * g1 + 0.31114694 * b1) - (0.21147017 * r2 - 0.52261711 * g2 + 0.31114694 * b2)
        let delta = 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
        return y1 > y2 ? -delta : delta
    }

    /// A pixel is anti-aliasing when its 3x3 neighbourhood has at most two pixels of equal
    /// brightness, and its darkest or brightest neighbour sits in a flat area (three or more
    /// identical neighbours) in both images: an edge, not a feature of its own. Inlined where
    /// each differing pixel is judged: a pixel inside a flat area (its left, right and upper
    /// neighbours identical: three equal brightnesses) is not, whatever the order of the walk,
    /// and a changed background is all such pixels.
    @inline(__always)
    static func isAntialiased(_ image: UnsafeBufferPointer<UInt8>, _ x: Int, _ y: Int, _ width: Int, _ height: Int,
                              other: UnsafeBufferPointer<UInt8>) -> Bool {
        let center = (y * width + x) * 4
        let flat = x > 0 && x < width - 1 && y > 0 && sameWord(image, center, image, center - 4)
            && sameWord(image, center, image, center + 4) && sameWord(image, center, image, center - width * 4)
        return !flat && neighbourhoodIsEdge(image, x, y, width, height, other: other)
    }

    /// `isAntialiased`'s walk over the 3x3 neighbourhood, as pixelmatch makes it.
    private static func neighbourhoodIsEdge(_ image: UnsafeBufferPointer<UInt8>, _ x: Int, _ y: Int, _ width: Int, _ height: Int,
                                            other: UnsafeBufferPointer<UInt8>) -> Bool {
        let center = (y * width + x) * 4
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        var darkest = 0.0, brightest = 0.0
        var darkX = 0, darkY = 0, brightX = 0, brightY = 0
        // Columns outer, rows inner, as pixelmatch visits them: on ties the first darkest or
        // brightest neighbour wins, and that choice decides the sibling test below.
        for nx in x0...x2 {
            for ny in y0...y2 where nx != x || ny != y {
                // Equal bytes have no delta: a flat neighbourhood skips the colour arithmetic.
                let j = (ny * width + nx) * 4
                let delta = sameWord(image, center, image, j) ? 0 : colorDelta(image, center, image, j, yOnly: true)
                if delta == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if delta < darkest {
                    darkest = delta; darkX = nx; darkY = ny
                } else if delta > brightest {
                    brightest = delta; brightX = nx; brightY = ny
                }
            }
        }
        if darkest == 0 || brightest == 0 { return false }
        return (hasManySiblings(image, darkX, darkY, width, height) && hasManySiblings(other, darkX, darkY, width, height))
            || (hasManySiblings(image, brightX, brightY, width, height) && hasManySiblings(other, brightX, brightY, width, height))
    }

    /// Whether the pixel at byte offset `i` of `p` and the one at `j` of `q` have the same four
    /// bytes (one compare; `p` and `q` may be the same image).
    @inline(__always) static func sameWord(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ q: UnsafeBufferPointer<UInt8>, _ j: Int) -> Bool {
        word(p, i) == word(q, j)
    }

    /// The four bytes of the pixel at byte offset `i`, as one word.
    @inline(__always) static func word(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        UnsafeRawPointer(p.baseAddress!).loadUnaligned(fromByteOffset: i, as: UInt32.self)
    }

    /// Three or more neighbours identical to the pixel (edges count as one).
    static func hasManySiblings(_ image: UnsafeBufferPointer<UInt8>, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        let center = (y * width + x) * 4
        var equal = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
        for ny in y0...y2 {
            for nx in x0...x2 where nx != x || ny != y {
                if sameWord(image, center, image, (ny * width + nx) * 4) {
                    equal += 1
                    if equal > 2 { return true }
                }
            }
        }
        return false
    }

    /// expected | difference | actual, side by side.
    package static func threePanel(expected: RGBAImage, difference: RGBAImage, actual: RGBAImage) -> RGBAImage {
        let height = max(expected.height, difference.height, actual.height)
        let width = expected.width + difference.width + actual.width
        var out = RGBAImage(width: width, height: height, fill: (255, 255, 255, 255))
        var offset = 0
        for image in [expected, difference, actual] {
            for y in 0..<image.height {
                let src = y * image.width * 4, dst = (y * width + offset) * 4
                out.pixels.replaceSubrange(dst..<(dst + image.width * 4), with: image.pixels[src..<(src + image.width * 4)])
            }
            offset += image.width
        }
        return out
    }
}

extension DiffResult {
    /// Images of different sizes, not compared: the verdict must not read as a pass, so every
    /// pixel of the larger image counts as different, on the larger canvas.
    package static func sizesDiffer(expected: (width: Int, height: Int), actual: (width: Int, height: Int)) -> DiffResult {
        let width = max(expected.width, actual.width), height = max(expected.height, actual.height)
        return DiffResult(width: width, height: height,
                          differentPixels: max(expected.width * expected.height, actual.width * actual.height), antialiasedPixels: 0,
                          bounds: PixelRect(x: 0, y: 0, width: width, height: height), identical: false)
    }
}

/// How many counted pixels a comparison may have and still pass: with no limit, none.
package struct DiffLimits: Equatable, Sendable {
    package var maxPixels: Int?
    package var maxRatio: Double?
    package init(maxPixels: Int? = nil, maxRatio: Double? = nil) {
        self.maxPixels = maxPixels
        self.maxRatio = maxRatio
    }

    /// Within every limit given; with none, any counted pixel fails.
    package func passes(_ result: DiffResult) -> Bool {
        if maxPixels == nil && maxRatio == nil { return result.differentPixels == 0 }
        return (maxPixels.map { result.differentPixels <= $0 } ?? true) && (maxRatio.map { result.ratio <= $0 } ?? true)
    }
}
