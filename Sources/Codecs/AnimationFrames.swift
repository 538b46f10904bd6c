import CPNGCodec
import CWebP
import Support

/// The frames of an animated WebP or APNG, read one at a time (two animations are compared
/// frame by frame without holding either): each frame the whole canvas, straight RGBA, with
/// how long it shows.
package final class AnimationFrames {
    /// How many times the pixel limit an animation's frames may hold in all, read or drawn.
    package static let pixelFactor = 64

    /// The container and its canvas.
    package let kind: String
    package let width: Int, height: Int
    /// Frames the file says it has.
    package let count: Int
    private var reader: Reader

    private enum Reader {
        case webp(OpaquePointer, bytes: UnsafeMutableBufferPointer<UInt8>, previousEnd: Int)
        case apng(APNGReader)
    }

    /// Whether `bytes` are an animation this reads: an animated WebP (VP8X with its animation
    /// flag) or an APNG (an acTL chunk before the image data).
    package static func isAnimation(_ bytes: [UInt8]) -> Bool {
        if bytes.count > 21, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<16].elementsEqual("WEBPVP8X".utf8) {
            return bytes[20] & 0x02 != 0
        }
        return PNGChunks.parse(bytes)?.contains { $0.type == "acTL" } ?? false
    }

    /// Opens `bytes`; a canvas over `maxPixels` or a file that is no animation is refused.
    package init(_ bytes: [UInt8], maxPixels: Int) throws {
        if bytes.count > 16, bytes[0..<4].elementsEqual("RIFF".utf8) {
            // The canvas size from the headers first: the decoder allocates its canvas at once
            // (a 40-byte header can ask for 16 million by 16 million pixels).
            var w: Int32 = 0, h: Int32 = 0
            guard WebPGetInfo(bytes, bytes.count, &w, &h) != 0 else { throw ImageDecodeError("not a WebP libwebp can read") }
            guard Checked.pixels(Int(w), Int(h), within: maxPixels) else {
                throw ImageDecodeError.overLimit(Int(w), Int(h), maxPixels)
            }
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = copy.initialize(from: bytes)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { copy.deallocate(); throw ImageDecodeError("animated WebP: libwebp's version does not match") }
            options.color_mode = MODE_RGBA
            var data = WebPData(bytes: copy.baseAddress, size: copy.count)
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                copy.deallocate()
                throw ImageDecodeError("not an animated WebP libwebp can read")
            }
            var info = WebPAnimInfo()
            WebPAnimDecoderGetInfo(decoder, &info)
            (width, height, count, kind) = (Int(info.canvas_width), Int(info.canvas_height), Int(info.frame_count), "WebP")
            reader = .webp(decoder, bytes: copy, previousEnd: 0)
        } else {
            let apng = try APNGReader(bytes, maxPixels: maxPixels)
            (width, height, count, kind) = (apng.width, apng.height, apng.frameCount, "APNG")
            reader = .apng(apng)
        }
        guard Checked.pixels(width, height, within: maxPixels) else {
            throw ImageDecodeError.overLimit(width, height, maxPixels)
        }
        // Every frame is a whole canvas read: bounded as drawing an animation is.
        let (total, overflow) = (width * height).multipliedReportingOverflow(by: max(count, 1))
        guard !overflow, total <= AnimationFrames.pixelFactor * maxPixels else {
            throw ImageDecodeError("\(count) frames of \(width)x\(height) are more than \(AnimationFrames.pixelFactor) times the pixel limit (\(maxPixels)) read")
        }
    }

    deinit {
        if case let .webp(decoder, bytes, _) = reader {
            WebPAnimDecoderDelete(decoder)
            bytes.deallocate()
        }
    }

    /// The next frame and its duration in ms (APNG's are fractions: 1/30 s is 33.3); nil
    /// after the last.
    package func next() throws -> (image: RGBAImage, milliseconds: Double)? {
        switch reader {
        case let .webp(decoder, bytes, previousEnd):
            guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
            var buffer: UnsafeMutablePointer<UInt8>?
            var end: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &buffer, &end) != 0, let buffer else { throw ImageDecodeError("animated WebP: a frame cannot be decoded") }
            reader = .webp(decoder, bytes: bytes, previousEnd: Int(end))
            let pixels = Array(UnsafeBufferPointer(start: buffer, count: width * height * 4))
            return (RGBAImage(width: width, height: height, pixels: pixels), Double(Int(end) - previousEnd))
        case let .apng(apng):
            return try apng.next()
        }
    }
}

/// APNG's frames composed on its canvas as the format says (frame regions, blend over or
/// source, dispose none, background or previous); each frame's data decoded as a PNG of its own.
final class APNGReader {
    let width: Int, height: Int, frameCount: Int
    private let header: ArraySlice<UInt8>
    /// Chunks a frame's PNG needs besides its image data (palette, transparency, gamma...).
    private let ancillary: [PNGChunks.Chunk]
    private var frames: [(control: ArraySlice<UInt8>, data: [UInt8])] = []
    private var index = 0
    private var canvas: RGBAImage
    private let maxPixels: Int

    init(_ bytes: [UInt8], maxPixels: Int) throws {
        guard let chunks = PNGChunks.parse(bytes), let ihdr = chunks.first, ihdr.type == "IHDR", ihdr.data.count == 13,
              chunks.contains(where: { $0.type == "acTL" }) else {
            throw ImageDecodeError("not an animation (an animated WebP or an APNG)")
        }
        header = ihdr.data
        width = PNGChunks.read32(ihdr.data, 0)
        height = PNGChunks.read32(ihdr.data, 4)
        guard width > 0, height > 0, Checked.pixels(width, height, within: maxPixels) else {
            throw ImageDecodeError.overLimit(max(width, 0), max(height, 0), maxPixels)
        }
        self.maxPixels = maxPixels
        ancillary = chunks.filter { ["PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT"].contains($0.type) }
        var current: (control: ArraySlice<UInt8>, data: [UInt8])?
        for chunk in chunks {
            switch chunk.type {
            case "fcTL":
                guard chunk.data.count == 26 else { throw ImageDecodeError("APNG: a frame control chunk has \(chunk.data.count) bytes, not 26") }
                if let frame = current { frames.append(frame) }
                current = (chunk.data, [])
            case "IDAT":
                // The default image is a frame only when a frame control came before it.
                current?.data += chunk.data
            case "fdAT":
                guard chunk.data.count >= 4 else { throw ImageDecodeError("APNG: a frame data chunk is too short") }
                current?.data += chunk.data.dropFirst(4)
            default:
                continue
            }
        }
        if let frame = current { frames.append(frame) }
        frameCount = frames.count
        canvas = RGBAImage(width: width, height: height)
    }

    func next() throws -> (image: RGBAImage, milliseconds: Double)? {
        guard index < frames.count else { return nil }
        let (control, data) = frames[index]
        index += 1
        let w = PNGChunks.read32(control, 4), h = PNGChunks.read32(control, 8)
        let x = PNGChunks.read32(control, 12), y = PNGChunks.read32(control, 16)
        let numerator = Int(control[control.startIndex + 20]) << 8 | Int(control[control.startIndex + 21])
        var denominator = Int(control[control.startIndex + 22]) << 8 | Int(control[control.startIndex + 23])
        if denominator == 0 { denominator = 100 }
        let dispose = control[control.startIndex + 24], blend = control[control.startIndex + 25]
        guard w > 0, h > 0, x >= 0, y >= 0, x + w <= width, y + h <= height else {
            throw ImageDecodeError("APNG: frame \(index) lies outside the \(width)x\(height) canvas")
        }
        // The frame as a PNG of its own: its size in a copy of the header, the same palette.
        var png = PNGChunks.signature
        png += PNGChunks.make("IHDR", PNGChunks.be32(w) + PNGChunks.be32(h) + Array(header.dropFirst(8)))
        for extra in ancillary { png += PNGChunks.make(extra.type, Array(extra.data)) }
        png += PNGChunks.make("IDAT", data) + PNGChunks.make("IEND", [])
        let frame = try PNGCodec.decode(png, maxPixels: maxPixels)
        let before = dispose == 2 ? canvas : nil
        for row in 0..<h {
            for column in 0..<w {
                let s = (row * w + column) * 4, d = ((y + row) * width + x + column) * 4
                let alpha = Int(frame.pixels[s + 3])
                if blend == 0 || alpha == 255 {
                    for c in 0..<4 { canvas.pixels[d + c] = frame.pixels[s + c] }
                } else if alpha > 0 {
                    // Straight-alpha "over".
                    let under = Int(canvas.pixels[d + 3]) * (255 - alpha) / 255
                    let out = alpha + under
                    for c in 0..<3 {
                        canvas.pixels[d + c] = UInt8((Int(frame.pixels[s + c]) * alpha + Int(canvas.pixels[d + c]) * under) / max(out, 1))
                    }
                    canvas.pixels[d + 3] = UInt8(out)
                }
            }
        }
        let shown = canvas
        if dispose == 1 {
            for row in 0..<h { for column in 0..<w { for c in 0..<4 { canvas.pixels[((y + row) * width + x + column) * 4 + c] = 0 } } }
        } else if let before {
            canvas = before
        }
        return (shown, Double(numerator) * 1000 / Double(denominator))
    }
}
