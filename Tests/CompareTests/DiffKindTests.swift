import Testing
import TestSupport
@testable import Compare

/// Why two images differ, on drawn scenes where the answer is known.
@Suite struct DiffKindTests {
    /// A light card with a dark bar, a blue button with soft (anti-aliased) edges and a few
    /// "letters" (small dark blocks), moved by (dx, dy) and with the button in `button`.
    static func scene(dx: Int = 0, dy: Int = 0, button: (UInt8, UInt8, UInt8) = (30, 110, 230), letters: [Int] = [0, 1, 2, 3],
                      edge: Double = 0.5) -> RGBAImage {
        var image = RGBAImage(width: 160, height: 120, fill: (250, 250, 250, 255))
        for x in 0..<160 { for y in 0..<14 { image[x, y] = (30, 30, 40, 255) } }
        for l in letters {
            for x in (20 + l * 14 + dx)..<(28 + l * 14 + dx) { for y in (30 + dy)..<(42 + dy) { image[x, y] = (20, 20, 20, 255) } }
        }
        // The button: a filled rectangle with a one-pixel border blended `edge` of the way.
        let blend = { (a: UInt8, b: UInt8) in UInt8((Double(a) * (1 - edge) + Double(b) * edge).rounded()) }
        for x in 40..<120 {
            for y in 70..<100 {
                let border = x == 40 || x == 119 || y == 70 || y == 99
                image[x, y] = border ? (blend(250, button.0), blend(250, button.1), blend(250, button.2), 255) : (button.0, button.1, button.2, 255)
            }
        }
        return image
    }

    static func kind(_ a: RGBAImage, _ b: RGBAImage, countAA: Bool = true) throws -> DiffKind? {
        var options = DiffOptions()
        options.countAntialiasing = countAA
        var changes = ChangedPixels()
        let result = try ImageDiff.compare(a, b, options: options, maxPixels: 1 << 24, changes: &changes)
        guard result.differentPixels > 0 || result.antialiasedPixels > 0 else { return nil }
        #expect(changes.covers(pixels: a.width * a.height))
        // Walking the changed pixels and scanning the box must agree.
        let scanned = DiffClassifier.classify(a, b, result: result, options: options)
        let walked = DiffClassifier.classify(a, b, result: result, options: options, changes: changes)
        #expect(scanned == walked)
        return walked
    }

    /// A large pair is compared in bands, one per core: the counts, the box and the changed
    /// pixels are those of one pass over the whole image (the difference panel is drawn in one).
    @Test func bandsAddUpToOnePass() throws {
        let small = Self.scene(), moved = Self.scene(dx: 3, button: (220, 50, 50), edge: 0.8)
        // 8x8 tiles of the scenes: 1280x960, over the size that is cut into bands.
        let tile = { (image: RGBAImage) in
            var big = RGBAImage(width: 1280, height: 960)
            for y in 0..<960 { for x in 0..<1280 { big[x, y] = image[x % 160, y % 120] } }
            return big
        }
        let a = tile(small)
        var b = tile(moved)
        // One change too small to count (the bar's colour by one step).
        b[5, 5] = (31, 30, 40, 255)
        let bands = DiffScan.bands(height: 960, pixels: 1280 * 960)
        #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == 960 && zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        var panel = RGBAImage(width: 0, height: 0), changes = ChangedPixels(), panelChanges = ChangedPixels()
        let banded = try ImageDiff.compare(a, b, maxPixels: 1 << 24, changes: &changes)
        let whole = try ImageDiff.compare(a, b, maxPixels: 1 << 24, diffPanel: &panel, changes: &panelChanges)
        #expect(banded == whole)
        #expect(banded.differentPixels > 0 && banded.antialiasedPixels > 0)
        var expected: [Int] = []
        for k in 0..<(1280 * 960) where a.pixels[(k * 4)..<(k * 4 + 4)] != b.pixels[(k * 4)..<(k * 4 + 4)] { expected.append(k) }
        var recorded: [Int] = []
        changes.forEachChanged(in: 0..<(1280 * 960)) { recorded.append($0); return true }
        #expect(recorded == expected)
        #expect(panelChanges.changed == changes.changed && panelChanges.overThreshold == changes.overThreshold)
        // Flagged: the pixels whose colours differ beyond the threshold (alpha is opaque here).
        let over = recorded.filter(changes.isOverThreshold).count
        #expect(over > 0 && over == recorded.count - 1)
        #expect(changes.isChanged(5 * 1280 + 5) && !changes.isOverThreshold(5 * 1280 + 5))
        // A range that starts and ends inside words.
        var inner: [Int] = []
        changes.forEachChanged(in: 70..<130_001) { inner.append($0); return true }
        #expect(inner == expected.filter { (70..<130_001).contains($0) })
        // The same range a bitmap word at a time.
        var words: [Int] = []
        changes.forEachWord(in: 70..<130_001) { first, bits, over in
            #expect(over & ~bits == 0)
            var rest = bits
            while rest != 0 { words.append(first | rest.trailingZeroBitCount); rest &= rest - 1 }
            return true
        }
        #expect(words == inner)
        // Counting anti-aliasing too, runs of one changed pair are counted eight at a time:
        // the same counts, box and bitmaps as judging each pixel (the panel's pass).
        var counting = DiffOptions()
        counting.countAntialiasing = true
        var runChanges = ChangedPixels(), pixelChanges = ChangedPixels()
        let runs = try ImageDiff.compare(a, b, options: counting, maxPixels: 1 << 24, changes: &runChanges)
        let pixels = try ImageDiff.compare(a, b, options: counting, maxPixels: 1 << 24, diffPanel: &panel, changes: &pixelChanges)
        #expect(runs == pixels && runs.differentPixels == over)
        #expect(runChanges.changed == pixelChanges.changed && runChanges.overThreshold == pixelChanges.overThreshold)
    }

    /// "Same shapes" counts the same pairs walking the changed pixels (as runs, four at a
    /// time inside one colour) as scanning the box: rectangles recoloured, moved and left
    /// alone on a width that is no multiple of 64, so runs cross bitmap words and rows.
    @Test func shapePairsWalkedAsScanned() throws {
        var generator = SplitMix(seed: 7)
        let pick = { (bound: Int) in Int(generator.next() % UInt64(bound)) }
        for (width, height) in [(301, 157), (1283, 830)] {
            var a = RGBAImage(width: width, height: height, fill: (240, 240, 236, 255))
            var b = a
            for k in 0..<120 {
                let (x, y) = (pick(width), pick(height))
                let (w, h) = (1 + pick(90), 1 + pick(40))
                let colour = (UInt8(pick(256)), UInt8(pick(256)), UInt8(pick(256)), UInt8(255))
                for yy in y..<min(height, y + h) {
                    for xx in x..<min(width, x + w) {
                        a[xx, yy] = colour
                        // A third recoloured, a third moved by a pixel, a third kept.
                        switch k % 3 {
                        case 0: b[xx, yy] = (colour.2, colour.0, colour.1, 255)
                        case 1: if xx + 1 < width { b[xx + 1, yy] = colour }
                        default: b[xx, yy] = colour
                        }
                    }
                }
            }
            for (p, q) in [(a, b), (b, a)] {
                var changes = ChangedPixels()
                let result = try ImageDiff.compare(p, q, maxPixels: 1 << 24, changes: &changes)
                let box = try #require(result.bounds)
                let walked = DiffClassifier.shapePairs(p, q, box: box, threshold: 0.1, changes: changes)
                let scanned = DiffClassifier.shapePairs(p, q, box: box, threshold: 0.1, changes: nil)
                #expect(walked.touched > 1000 && walked.lost > 0)
                #expect(walked == scanned, "\(width)x\(height)")
            }
        }
    }

    /// A large box's "same shapes" test is counted in bands of rows, one per core: a
    /// recolouring and a new shape over 1280x960 read as on one tile, scanned or walked.
    @Test func aLargeBoxIsClassifiedInBands() throws {
        let tile = { (image: RGBAImage) in
            var big = RGBAImage(width: 1280, height: 960)
            for y in 0..<960 { for x in 0..<1280 { big[x, y] = image[x % 160, y % 120] } }
            return big
        }
        #expect(try Self.kind(Self.scene(), Self.scene(button: (220, 50, 50))) == .colour)
        #expect(try Self.kind(tile(Self.scene()), tile(Self.scene(button: (220, 50, 50)))) == .colour)
        #expect(try Self.kind(tile(Self.scene()), tile(Self.scene(letters: [0, 2]))) == .changed)
    }

    @Test func shiftsAreFoundWithTheirOffset() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(dx: 5, dy: 3)) == .shifted(dx: 5, dy: 3))
        #expect(try Self.kind(Self.scene(), Self.scene(dx: -7, dy: 0)) == .shifted(dx: -7, dy: 0))
    }

    @Test func aRecolouredButtonIsColourOnly() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(button: (220, 50, 50))) == .colour)
    }

    @Test func softerEdgesAreAntialiasing() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(edge: 0.8)) == .antialiasing)
    }

    @Test func aMissingLetterIsAChange() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(letters: [0, 1, 3])) == .changed)
    }

    @Test func equalImagesHaveNoKind() throws {
        #expect(try Self.kind(Self.scene(), Self.scene()) == nil)
    }

    @Test func shiftsBeyondTheSearchAreChanges() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(dx: DiffClassifier.maxShift + 6)) == .changed)
    }
}

