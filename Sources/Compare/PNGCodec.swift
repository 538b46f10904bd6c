import CPNG
import CPNGEncode

public enum PNGError: Error, Equatable, CustomStringConvertible {
    case notPNG(String)
    case unsupported(String)
    case encode(String)

    public var description: String {
        switch self {
        case let .notPNG(why): return "not a PNG file (\(why))"
        case let .unsupported(why): return "unsupported PNG (\(why))"
        case let .encode(why): return "cannot encode PNG (\(why))"
        }
    }
}

/// PNG decoding through libpng's simplified API (grey, palette, RGB and RGBA, 8 or 16 bits,
/// all come out as straight 8-bit RGBA) and encoding through hlrender's one PNG writer.
public enum PNGCodec {
    public static func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw PNGError.notPNG("no PNG signature")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw PNGError.notPNG(message(image)) }
        defer { png_image_free(&image) }
        image.format = UInt32(hl_png_format_rgba)
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= 1 << 28 else {
            throw PNGError.unsupported("\(width)x\(height)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil)
        }
        guard finished != 0 else { throw PNGError.notPNG(message(image)) }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Straight 8-bit RGBA out, through the same writer as hlrender's renders.
    public static func encode(_ rgba: RGBAImage) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 256)
        let status = rgba.pixels.withUnsafeBufferPointer {
            hl_png_encode($0.baseAddress, Int32(rgba.width), Int32(rgba.height), Int32(rgba.width * 4),
                          Int32(HL_PNG_RGBA), hl_png_default_level, &out, &length, &error, error.count)
        }
        guard status == 0, let out else {
            throw PNGError.encode(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { hl_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    private static func message(_ image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
