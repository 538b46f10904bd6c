import CPNG
import CPNGCodec
import Support
import Glibc

package enum PNGError: Error, Equatable, CustomStringConvertible {
    case notPNG(String)
    case tooLarge(width: Int, height: Int, limit: Int)
    case encode(String)

    package var description: String {
        switch self {
        case let .notPNG(why): return "not a valid PNG file (\(why))"
        case let .tooLarge(width, height, limit):
            return "declares \(width)x\(height) pixels, over the limit of \(limit)"
        case let .encode(why): return "cannot encode PNG (\(why))"
        }
    }
}

/// PNG decoding through libpng (any colour type and depth, straight 8-bit RGBA out, stored
/// values: no gamma or colour-profile conversion) and encoding through hlrender's one PNG writer.
package enum PNGCodec {
    /// Decodes `bytes`; the declared size is checked against `maxPixels` before any allocation.
    /// The pixels are decoded straight into the image's own storage (a 4K screenshot is 33 MB:
    /// a second buffer and a copy were a third of a comparison's time). `oneShot`: the process
    /// decodes this image and exits, so its storage is asked for in 2 MB pages where the kernel
    /// allows (a 4 KB page fault each 4 KB was a fifth of decoding a story); a long-running
    /// process reuses freed memory instead and gains nothing from them.
    package static func decode(_ bytes: [UInt8], maxPixels: Int = PixelLimit.defaultPixels, oneShot: Bool = false) throws(PNGError) -> RGBAImage {
        if let (width, height) = dimensions(bytes), width > 0, height > 0, Checked.pixels(width, height, within: maxPixels) {
            let capacity = hl_png_decode_capacity(UInt32(width), UInt32(height))
            var status = Int32(HL_PNG_CORRUPT)
            var error = [CChar](repeating: 0, count: 256)
            let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                if oneShot { adviseHugePages(buffer) }
                status = bytes.withUnsafeBufferPointer {
                    hl_png_decode_into($0.baseAddress, $0.count, buffer.baseAddress, capacity, UInt32(width), UInt32(height), &error, error.count)
                }
                count = status == HL_PNG_OK ? width * height * 4 : 0
            }
            guard status == HL_PNG_OK else { throw PNGError.notPNG(message(error)) }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
        // Not a PNG header, or over the limit: libpng's verdict and wording.
        var out: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0, height: UInt32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer {
            hl_png_decode($0.baseAddress, $0.count, UInt64(max(0, maxPixels)), &out, &width, &height, &error, error.count)
        }
        defer { hl_png_free(out) }
        if status == HL_PNG_TOO_LARGE { throw PNGError.tooLarge(width: Int(width), height: Int(height), limit: maxPixels) }
        guard status == HL_PNG_OK, let out else { throw PNGError.notPNG(message(error)) }
        return RGBAImage(width: Int(width), height: Int(height),
                         pixels: Array(UnsafeBufferPointer(start: out, count: Int(width) * Int(height) * 4)))
    }

    /// Advice only: where huge pages are off, madvise fails and the pages stay small.
    private static func adviseHugePages(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        let huge = 2 << 20
        let start = (Int(bitPattern: buffer.baseAddress) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: buffer.baseAddress) + buffer.count) & ~(huge - 1)
        if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
    }

    private static func message(_ error: [CChar]) -> String {
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `bytes` are a whole PNG as far as the framing goes (signature, IHDR first, each
    /// chunk's CRC, IEND last): checked without inflating anything.
    package static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { hl_png_well_formed($0.baseAddress, $0.count) != 0 }
    }

    /// Width and height from a PNG's header, nil when `bytes` do not start like a PNG (each side
    /// below 2^32, as IHDR holds them).
    package static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        let word = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// Straight 8-bit RGBA out, through the same writer as hlrender's renders (`oneShot`: a
    /// large image on two threads, see `RenderOptions.oneShot`).
    package static func encode(_ rgba: RGBAImage, oneShot: Bool = false) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = rgba.pixels.withUnsafeBufferPointer {
            hl_png_encode($0.baseAddress, Int32(rgba.width), Int32(rgba.height), Int32(rgba.width * 4),
                          Int32(HL_PNG_RGBA), Int32(HL_PNG_FAST), oneShot ? 1 : 0, &out, &length, &error, error.count)
        }
        guard status == 0, let out else {
            throw PNGError.encode(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { hl_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}
