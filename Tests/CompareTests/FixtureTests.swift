import Codecs
import Render
import Foundation
import Testing
@testable import Compare

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

private func load(_ path: String) throws -> RGBAImage {
    try PNGCodec.decode([UInt8](try Data(contentsOf: fixtures.appendingPathComponent(path))))
}

/// pixelmatch v6.0.0's own fixtures (Fixtures/pixelmatch-v6, ISC licence) with the counts its
/// test suite expects (anti-aliased pixels not counted): agreement is checked, not claimed.
@Suite struct PixelmatchFixtureTests {
    @Test(arguments: [
        ("1a", "1b", 0.05, 143), ("1a", "1a", 0.0, 0), ("2a", "2b", 0.05, 12437), ("3a", "3b", 0.05, 212),
        ("4a", "4b", 0.05, 36049), ("5a", "5b", 0.05, 0), ("6a", "6b", 0.05, 51), ("6a", "6a", 0.0, 0),
        ("7a", "7b", 0.1, 2448),
    ])
    func countsMatchPixelmatch(a: String, b: String, threshold: Double, expected: Int) throws {
        var options = DiffOptions()
        options.threshold = threshold
        let result = ImageDiff.compare(try load("pixelmatch-v6/\(a).png"), try load("pixelmatch-v6/\(b).png"), options: options)
        #expect(result.differentPixels == expected)
    }
}

/// One image stored as 8 and 16 bits, grey and RGB, with and without a gAMA of 1.0
/// (Fixtures/encodings/make.py): stored values are compared, as pixelmatch, odiff and Pillow do.
@Suite struct PNGEncodingTests {
    @Test(arguments: ["rgb16.png", "rgb8-gamma1.png"])
    func rgbEncodingsDecodeAlike(file: String) throws {
        #expect(try load("encodings/\(file)") == (try load("encodings/rgb8.png")))
    }

    @Test(arguments: ["grey16.png", "grey16-gamma1.png"])
    func greyEncodingsDecodeAlike(file: String) throws {
        #expect(try load("encodings/\(file)") == (try load("encodings/grey8.png")))
    }

    @Test func greyValuesAreStoredValues() throws {
        // make.py's grey level at (x, y) is (16x + 2y) mod 256; a linear-light conversion would move it.
        let image = try load("encodings/grey16-gamma1.png")
        #expect(image[8, 0] == (128, 128, 128, 255))
        #expect(image[3, 5] == (58, 58, 58, 255))
    }

    @Test func declaredSizeIsCheckedBeforeDecoding() throws {
        // A tiny file that declares 16384x16384 pixels: refused from its header.
        let image = RGBAImage(width: 1, height: 1, fill: (0, 0, 0, 255))
        var bytes = try PNGCodec.encode(image)
        // IHDR width and height, then the chunk's CRC recomputed.
        bytes.replaceSubrange(16..<24, with: [0, 0, 0x40, 0, 0, 0, 0x40, 0])
        let crc = crc32(Array(bytes[12..<29]))
        bytes.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 255), UInt8(crc >> 8 & 255), UInt8(crc & 255)])
        #expect(throws: PNGError.tooLarge(width: 16384, height: 16384, limit: 1_000_000)) {
            try PNGCodec.decode(bytes, maxPixels: 1_000_000)
        }
    }

    @Test func corruptDataIsAnError() throws {
        var bytes = try PNGCodec.encode(RGBAImage(width: 20, height: 20, fill: (9, 9, 9, 255)))
        bytes[bytes.count - 20] ^= 0xFF  // inside IDAT: the CRC no longer matches
        #expect(throws: PNGError.self) { try PNGCodec.decode(bytes) }
    }
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

@Suite struct AlphaRuleTests {
    @Test func transparentDiffersFromOpaqueWhite() {
        let transparent = RGBAImage(width: 8, height: 8, fill: (0, 0, 0, 0))
        let white = RGBAImage(width: 8, height: 8, fill: (255, 255, 255, 255))
        #expect(ImageDiff.compare(transparent, white).differentPixels == 64)
    }

    @Test func smallAlphaChangesStayUnderTheThreshold() {
        let a = RGBAImage(width: 8, height: 8, fill: (255, 255, 255, 250))
        let b = RGBAImage(width: 8, height: 8, fill: (255, 255, 255, 255))
        #expect(ImageDiff.compare(a, b).differentPixels == 0)
    }

    @Test func differentSizesCountTheExtraArea() {
        let a = RGBAImage(width: 10, height: 10, fill: (255, 255, 255, 255))
        let b = RGBAImage(width: 12, height: 10, fill: (255, 255, 255, 255))
        let result = ImageDiff.compare(a, b)
        #expect(result.width == 12 && result.differentPixels == 20)
        #expect(result.bounds == PixelRect(x: 10, y: 0, width: 2, height: 10))
    }
}
