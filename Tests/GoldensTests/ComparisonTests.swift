import Codecs
import Compare
import Goldens
import Render
import Support
import Testing

/// The one comparison's rule, step by step, on encoded PNGs.
@Suite struct ComparisonTests {
    static func png(_ width: Int, _ height: Int, _ fill: (UInt8, UInt8, UInt8, UInt8)) throws -> [UInt8] {
        try PNGCodec.encode(RGBAImage(width: width, height: height, fill: fill))
    }

    @Test func identicalBytesMatchUnlessTheirFramingIsDamaged() throws {
        let good = try Self.png(20, 10, (10, 20, 30, 255))
        let same = try Comparison.compare(expected: good, actual: good, tolerance: GoldenTolerance(), maxPixels: 1000)
        #expect(same.verdict == .match && same.result.identical && same.panel == nil)
        var damaged = good
        damaged[damaged.count - 20] ^= 0x5A
        #expect(!PNGCodec.isWellFormed(damaged) && PNGCodec.isWellFormed(good))
        #expect(throws: ComparisonError.self) {
            try Comparison.compare(expected: damaged, actual: damaged, tolerance: GoldenTolerance(), maxPixels: 1000)
        }
        #expect(!PNGCodec.isWellFormed(good + [0]))  // bytes after IEND
    }

    @Test func differentSizesFailFromTheHeadersAlone() throws {
        let small = try Self.png(20, 10, (0, 0, 0, 255))
        // A header that declares 30x10 with a body that would not even decode: never decoded.
        var large = try Self.png(30, 10, (0, 0, 0, 255))
        large.removeLast(30)
        let outcome = try Comparison.compare(expected: small, actual: large, tolerance: GoldenTolerance(), maxPixels: 1000)
        #expect(outcome.verdict == .sizeMismatch && outcome.result.differentPixels == 300 && outcome.expected == nil)
        // Padding, when asked, decodes and counts the extra area.
        let whole = try Self.png(30, 10, (0, 0, 0, 255))
        let padded = try Comparison.compare(expected: small, actual: whole, tolerance: GoldenTolerance(), sizeMismatch: .pad, maxPixels: 1000)
        #expect(padded.verdict == .differ && padded.result.differentPixels == 100)
    }

    @Test func declaredSizesAreCheckedFirstAndTheLimitsDecide() throws {
        let a = try Self.png(40, 40, (0, 0, 0, 255))
        do {
            _ = try Comparison.compare(expected: a, actual: a, tolerance: GoldenTolerance(), maxPixels: 1000)
            Issue.record("a 1600-pixel image passed a 1000-pixel limit")
        } catch {
            #expect(error.image == .expected && error.reason.contains("over the limit of 1000"), "\(error)")
        }
        var pixels = RGBAImage(width: 10, height: 10, fill: (0, 0, 0, 255))
        pixels.pixels[0] = 255
        let b = try PNGCodec.encode(pixels)
        let c = try Self.png(10, 10, (0, 0, 0, 255))
        var tolerance = GoldenTolerance()
        #expect(try Comparison.compare(expected: c, actual: b, tolerance: tolerance, maxPixels: 1000).verdict == .differ)
        try tolerance.set("max-diff-pixels", .text("1"))
        #expect(try Comparison.compare(expected: c, actual: b, tolerance: tolerance, maxPixels: 1000).verdict == .match)
    }

    @Test func ignoreIsOneRowForFlagsManifestsAndFields() throws {
        var tolerance = GoldenTolerance()
        try tolerance.set("ignore", .text("0,0,2,2"))
        try tolerance.set("ignore", .json(.array([.string("5,5,1,1"), .string("7,0,3,3")])))
        #expect(tolerance.options.ignore == [PixelRect(x: 0, y: 0, width: 2, height: 2), PixelRect(x: 5, y: 5, width: 1, height: 1),
                                             PixelRect(x: 7, y: 0, width: 3, height: 3)])
        #expect(throws: OptionError.self) { try tolerance.set("ignore", .text("1,2,0,4")) }
        // A row or a form cannot make the per-pixel region test as long as it likes.
        var many = GoldenTolerance()
        let regions = JSONValue.array((0..<(GoldenTolerance.maxIgnoreRegions + 1)).map { .string("\($0),0,1,1") })
        #expect(throws: OptionError.self) { try many.set("ignore", .json(regions)) }
        #expect(many.options.ignore.isEmpty)
        #expect(GoldenTolerance.definitions.named("ignore")?.repeatable == true)
        // A pixel inside an ignored region no longer counts.
        var changed = RGBAImage(width: 10, height: 10, fill: (0, 0, 0, 255))
        changed.pixels[0] = 255
        let a = try Self.png(10, 10, (0, 0, 0, 255)), b = try PNGCodec.encode(changed)
        #expect(try Comparison.compare(expected: a, actual: b, tolerance: tolerance, maxPixels: 1000).verdict == .match)
    }
}
