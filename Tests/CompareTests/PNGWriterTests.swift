import Codecs
import Render
import CPNGCodec
import TestSupport
import Testing
@testable import Compare

/// The fast PNG path has its own deflate (Sources/CPNGCodec/FastDeflate.c): every image it writes
/// must decode through libpng (zlib's inflate, which refuses malformed codes) to the same pixels.
@Suite struct PNGWriterTests {
    /// A deterministic generator, so a failure names a reproducible case.
    typealias Random = SplitMix

    enum Pattern: CaseIterable { case noise, flat, vertical, diagonal, sparse, tiles, stripes }

    static func image(_ pattern: Pattern, width: Int, height: Int, opaque: Bool, seed: UInt64, gray: Bool = false) -> RGBAImage {
        var random = Random(seed: seed)
        let tile = (0..<(7 * 5 * 4)).map { _ in random.byte() }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                for c in 0..<4 {
                    let value: UInt8
                    switch pattern {
                    case .noise: value = random.byte()
                    case .flat: value = UInt8(40 + c * 50)
                    case .vertical: value = UInt8(truncatingIfNeeded: y * (c + 1) / 3)
                    case .diagonal: value = UInt8(truncatingIfNeeded: (x + y) * (c + 1) / 2)
                    case .sparse: value = random.next() % 97 == 0 ? random.byte() : 200
                    case .tiles: value = tile[((y % 5) * 7 + x % 7) * 4 + c]
                    case .stripes: value = (x / 3 + y) % 4 == 0 ? 255 : UInt8(c * 60)
                    }
                    pixels[i + c] = value
                }
                if opaque { pixels[i + 3] = 255 }
                if gray { (pixels[i + 1], pixels[i + 2]) = (pixels[i], pixels[i]) }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static let sizes = [(1, 1), (1, 40), (40, 1), (3, 3), (64, 48), (301, 211), (9_000, 3)]

    @Test(arguments: Pattern.allCases)
    func everyImageDecodesToItsPixels(pattern: Pattern) throws {
        for (index, (width, height)) in Self.sizes.enumerated() {
            for opaque in [true, false] {
                let original = Self.image(pattern, width: width, height: height, opaque: opaque, seed: UInt64(index + 1))
                let decoded = try PNGCodec.decode(try PNGCodec.encode(original))
                #expect(decoded == original, "\(pattern) \(width)x\(height) opaque: \(opaque)")
            }
        }
    }

    /// Long enough for several Huffman blocks (and stored blocks for the noise), with matches
    /// reaching back across block boundaries.
    @Test func largeImagesSpanSeveralBlocks() throws {
        for pattern in [Pattern.noise, .sparse, .tiles, .diagonal] {
            let original = Self.image(pattern, width: 700, height: 400, opaque: false, seed: 7)
            #expect(try PNGCodec.decode(try PNGCodec.encode(original)) == original, "\(pattern)")
        }
    }

    /// Flat regions cost almost nothing and noise is stored rather than inflated.
    @Test func sizesStayBounded() throws {
        let flat = try PNGCodec.encode(Self.image(.flat, width: 1080, height: 1920, opaque: true, seed: 1))
        #expect(flat.count < 20_000, "\(flat.count) bytes for a flat 1080x1920 image")
        let noise = Self.image(.noise, width: 500, height: 500, opaque: false, seed: 3)
        let encoded = try PNGCodec.encode(noise)
        #expect(encoded.count < 500 * 500 * 4 + 500 + 1_000, "\(encoded.count) bytes for 1 MB of noise")
    }

    /// PNG's colour type (IHDR's 10th byte): 0 gray, 2 RGB, 4 gray and alpha, 6 RGBA.
    static func colourType(_ png: [UInt8]) -> UInt8 { png[25] }

    /// Gray images (red, green and blue equal everywhere) are written with one channel (two
    /// with alpha), and still decode to exactly their pixels; one coloured pixel keeps RGB.
    @Test(arguments: Pattern.allCases)
    func grayImagesTakeOneChannel(pattern: Pattern) throws {
        for opaque in [true, false] {
            let original = Self.image(pattern, width: 301, height: 211, opaque: opaque, seed: 5, gray: true)
            let encoded = try PNGCodec.encode(original)
            #expect(Self.colourType(encoded) == (opaque ? 0 : 4), "\(pattern) opaque: \(opaque)")
            #expect(try PNGCodec.decode(encoded) == original, "\(pattern) opaque: \(opaque)")
            var tinted = original
            tinted.pixels[(100 * 301 + 200) * 4] ^= 1
            let colour = try PNGCodec.encode(tinted)
            #expect(Self.colourType(colour) == (opaque ? 2 : 6), "\(pattern) opaque: \(opaque), one pixel tinted")
            #expect(try PNGCodec.decode(colour) == tinted)
        }
    }

    /// In a one-shot render a large image is filtered and deflated in two bands on two threads
    /// and the two streams joined: the file must decode to the same pixels, and be the same
    /// bytes as one thread makes.
    @Test func twoBandImagesDecodeToTheirPixels() throws {
        // At least 1 MB of filtered rows, the least that gets two bands, even for gray.
        for pattern in [Pattern.noise, .diagonal, .sparse] {
            for (gray, opaque) in [(false, false), (false, true), (true, true), (true, false)] {
                let original = Self.image(pattern, width: 1030, height: 1020, opaque: opaque, seed: 11, gray: gray)
                let twoThreads = try PNGCodec.encode(original, oneShot: true)
                #expect(try PNGCodec.decode(twoThreads) == original, "\(pattern) gray: \(gray) opaque: \(opaque)")
                #expect(twoThreads == (try PNGCodec.encode(original)), "\(pattern) gray: \(gray) opaque: \(opaque)")
            }
        }
    }
}
