import CPNGCodec
import CTurboJPEG
import CWebP
import Support

/// Why bytes are not a picture hlrender can read, in words for the user.
package struct ImageDecodeError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }

    /// An image (or an animation's canvas) declaring more pixels than the limit: one wording
    /// for every decoder.
    package static func overLimit(_ width: Int, _ height: Int, _ maxPixels: Int) -> ImageDecodeError {
        ImageDecodeError("declares \(width)x\(height) pixels, over the limit of \(maxPixels)")
    }
}

/// PNG, JPEG and WebP files to RGBA, told apart by their first bytes; the declared size is
/// checked against `maxPixels` before the pixels are allocated. No Cairo here: image comparison
/// decodes through this alone.
package enum ImageDecoder {
    package static func decode(_ bytes: [UInt8], maxPixels: Int = PixelLimit.defaultPixels) throws(ImageDecodeError) -> RGBAImage {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try png(bytes, maxPixels: maxPixels) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try jpeg(bytes, maxPixels: maxPixels) }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return try webp(bytes, maxPixels: maxPixels)
        }
        throw ImageDecodeError("not a PNG, JPEG or WebP file")
    }

    /// Width and height from a PNG, JPEG or WebP header, nothing decoded; nil when the bytes
    /// are none of these or their header cannot be read.
    package static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        if let size = PNGCodec.dimensions(bytes) { return size }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            guard let handle = tjInitDecompress() else { return nil }
            defer { tjDestroy(handle) }
            return jpegSize(handle, bytes)
        }
        var width: Int32 = 0, height: Int32 = 0
        guard bytes.count >= 12, WebPGetInfo(bytes, bytes.count, &width, &height) != 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// The pixel count a PNG, JPEG or WebP header declares (what decoding would allocate, known
    /// before decoding); nil when the header cannot be read. Capped at 2^40 (past any pixel
    /// limit), so a hostile header cannot make a caller's sums overflow.
    package static func pixelCount(_ bytes: [UInt8]) -> Int? {
        guard let (width, height) = dimensions(bytes) else { return nil }
        // Each side is below 2^32, so the product fits in 64 bits before the cap.
        let (product, overflow) = UInt64(width).multipliedReportingOverflow(by: UInt64(height))
        return overflow ? 1 << 40 : Int(min(product, 1 << 40))
    }

    /// A JPEG's size from its header (TurboJPEG's reader), nil when it cannot be read.
    private static func jpegSize(_ handle: tjhandle, _ bytes: [UInt8]) -> (Int, Int)? {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        return status == 0 ? (Int(width), Int(height)) : nil
    }

    private static func checkSize(_ width: Int, _ height: Int, _ maxPixels: Int) throws(ImageDecodeError) {
        guard width > 0, height > 0 else { throw ImageDecodeError("empty image") }
        guard Checked.pixels(width, height, within: maxPixels) else {
            throw .overLimit(width, height, maxPixels)
        }
    }

    /// Through `PNGCodec`, the one PNG decoder (pictures and goldens alike).
    private static func png(_ bytes: [UInt8], maxPixels: Int) throws(ImageDecodeError) -> RGBAImage {
        do {
            return try PNGCodec.decode(bytes, maxPixels: maxPixels)
        } catch {
            if case let .tooLarge(width, height, _) = error { try checkSize(width, height, maxPixels) }
            throw ImageDecodeError("\(error)")
        }
    }

    private static func jpeg(_ bytes: [UInt8], maxPixels: Int) throws(ImageDecodeError) -> RGBAImage {
        guard let handle = tjInitDecompress() else { throw ImageDecodeError("cannot start the JPEG decoder") }
        defer { tjDestroy(handle) }
        guard let (w, h) = jpegSize(handle, bytes) else {
            throw ImageDecodeError("not a valid JPEG (\(String(cString: tjGetErrorStr2(handle))))")
        }
        try checkSize(w, h, maxPixels)
        var input = bytes
        let (width, height) = (Int32(w), Int32(h))
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let status = tjDecompress2(handle, &input, UInt(input.count), &pixels, width, 0, height, Int32(TJPF_RGBA.rawValue), 0)
        // Warnings (e.g. a few missing bytes at the end) still give an image; errors do not.
        if status != 0 && tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw ImageDecodeError("not a valid JPEG (\(String(cString: tjGetErrorStr2(handle))))")
        }
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    }

    private static func webp(_ bytes: [UInt8], maxPixels: Int) throws(ImageDecodeError) -> RGBAImage {
        var width: Int32 = 0, height: Int32 = 0
        guard WebPGetInfo(bytes, bytes.count, &width, &height) != 0 else { throw ImageDecodeError("not a valid WebP file") }
        try checkSize(Int(width), Int(height), maxPixels)
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let ok = pixels.withUnsafeMutableBufferPointer {
            WebPDecodeRGBAInto(bytes, bytes.count, $0.baseAddress, $0.count, width * 4) != nil
        }
        guard ok else { throw ImageDecodeError("not a valid WebP file (cannot decode)") }
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    }
}
