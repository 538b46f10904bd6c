import Codecs
import Render
import Compare
import Foundation
import Testing

/// What the service reserves for a comparison before decoding: the header's pixel count.
@Suite struct PNGHeaderTests {
    @Test func theHeaderGivesThePixelCount() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/rgba.png")
        let bytes = Array(try Data(contentsOf: url))
        let image = try PNGCodec.decode(bytes)
        #expect(ImageDecoder.pixelCount(bytes) == image.width * image.height)
        #expect(ImageDecoder.pixelCount(Array("not a png at all, not at all".utf8)) == nil)
    }

    /// A hostile header declaring 2^32 - 1 on both sides is capped, not an overflow trap.
    @Test func hostileSidesAreCapped() {
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        header += [UInt8](repeating: 0xFF, count: 8)
        #expect(ImageDecoder.pixelCount(header) == 1 << 40)
        #expect(ImageDecoder.pixelCount(header).map { $0 * 4 * 3 * 2 } ?? 0 > 0)
    }
}
