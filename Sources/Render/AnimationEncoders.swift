import Codecs
import CPNGCodec
import Glibc
import CWebP
import Support

/// One drawn frame: Cairo's words (premultiplied BGRA, or BGRX when `opaque`), valid only
/// during the call it is given to.
struct FramePixels {
    let data: UnsafePointer<UInt8>
    let width: Int, height: Int, stride: Int
    let opaque: Bool
}

/// An animation container written frame by frame. `add` starts a frame shown for one frame
/// time; `extend` shows the last one a frame time longer (an identical frame is not encoded
/// twice). Not for use from two threads at once.
protocol FrameEncoder: AnyObject {
    func add(_ frame: FramePixels) throws
    func extend() throws
    func finish() throws -> [UInt8]
}

/// Animated WebP, assembled with libwebpmux: each distinct frame is compared with the one
/// before, and only the rectangle that changed is coded (libwebp's own animation encoder
/// compared whole canvases several times a frame: half of an animation's time), as a frame
/// that replaces those pixels (no blending, nothing disposed).
final class WebPAnimation: FrameEncoder {
    private let mux: OpaquePointer
    private var config = WebPConfig()
    private let width: Int, height: Int, fps: Int
    /// The last frame's pixels, to find what changed.
    private var previous: [UInt8] = []
    /// Frame times so far (the file's clock), and the coded frame not yet added: its place,
    /// its first frame time and how many it shows.
    private var clock = 0
    private var pending: (bytes: [UInt8], x: Int, y: Int, start: Int, count: Int)?

    init(width: Int, height: Int, fps: Int, loop: Int, options: EncodeOptions) throws {
        guard let mux = WebPMuxNew() else { throw RenderError.image("encoding animated WebP: libwebp's version does not match") }
        self.mux = mux
        (self.width, self.height, self.fps) = (width, height, fps)
        var params = WebPMuxAnimParams(bgcolor: 0, loop_count: Int32(loop))
        guard WebPConfigInit(&config) != 0, WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)) == WEBP_MUX_OK,
              WebPMuxSetAnimationParams(mux, &params) == WEBP_MUX_OK else {
            WebPMuxDelete(mux)
            throw RenderError.image("encoding animated WebP: a \(width)x\(height) animation cannot be made")
        }
        config.lossless = options.lossless ? 1 : 0
        config.quality = Float(options.quality.value)
        // Fast methods: a story's frames are many small rectangles.
        config.method = options.lossless ? 0 : 2
        if options.lossless { config.exact = 1 }
    }

    deinit { WebPMuxDelete(mux) }

    func add(_ frame: FramePixels) throws {
        let rows = frame.stride * height
        var area = (x: 0, y: 0, width: width, height: height)
        if !previous.isEmpty {
            guard let changed = previous.withUnsafeBytes({ Self.changed(from: $0.baseAddress!, to: frame) }) else {
                return try extend()  // the same pixels: the frame before shows longer
            }
            area = changed
        }
        let bytes = try code(frame, area)
        try flush()
        pending = (bytes, area.x, area.y, clock, 1)
        clock += 1
        if previous.isEmpty { previous = [UInt8](repeating: 0, count: rows) }
        previous.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: frame.data, byteCount: rows) }
    }

    func extend() throws {
        pending?.count += 1
        clock += 1
    }

    func finish() throws -> [UInt8] {
        try flush()
        var data = WebPData()
        guard WebPMuxAssemble(mux, &data) == WEBP_MUX_OK, let bytes = data.bytes else {
            throw RenderError.image("encoding animated WebP: assembling the file failed")
        }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    /// Adds the pending frame, now that its duration is known.
    private func flush() throws {
        guard let frame = pending else { return }
        pending = nil
        let ms = { (frames: Int) in Checked.clamped(Double(frames) * 1000 / Double(self.fps), .toNearestOrAwayFromZero, in: 0...Int(Int32.max)) }
        let pushed = frame.bytes.withUnsafeBufferPointer { buffer in
            var info = WebPMuxFrameInfo()
            info.bitstream = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            info.x_offset = Int32(frame.x)
            info.y_offset = Int32(frame.y)
            info.duration = Int32(ms(frame.start + frame.count) - ms(frame.start))
            info.id = WEBP_CHUNK_ANMF
            info.dispose_method = WEBP_MUX_DISPOSE_NONE
            info.blend_method = WEBP_MUX_NO_BLEND
            return WebPMuxPushFrame(mux, &info, 1)
        }
        guard pushed == WEBP_MUX_OK else { throw RenderError.image("encoding animated WebP: frame \(frame.start + 1) could not be added") }
    }

    /// `area` of the frame as a WebP bitstream.
    private func code(_ frame: FramePixels, _ area: (x: Int, y: Int, width: Int, height: Int)) throws -> [UInt8] {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw RenderError.image("encoding animated WebP: libwebp's version does not match") }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = config.lossless
        picture.width = Int32(area.width)
        picture.height = Int32(area.height)
        let origin = frame.data + area.y * frame.stride + area.x * 4
        let imported: Int32
        if frame.opaque {
            imported = WebPPictureImportBGRX(&picture, origin, Int32(frame.stride))
        } else {
            let bgra = ImageEncoder.straightBGRA(origin, width: area.width, height: area.height, stride: frame.stride, rgb24: false)
            imported = WebPPictureImportBGRA(&picture, bgra, Int32(area.width * 4))
        }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        picture.writer = WebPMemoryWrite
        // The writer's address is valid inside this call only, where the encoder writes to it.
        let coded = imported != 0 && withUnsafeMutablePointer(to: &writer) { pointer in
            picture.custom_ptr = UnsafeMutableRawPointer(pointer)
            return WebPEncode(&config, &picture) != 0
        }
        guard coded, let mem = writer.mem else {
            throw RenderError.image("encoding animated WebP: frame \(clock + 1) failed (libwebp error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: mem, count: writer.size))
    }

    /// The smallest rectangle (its corner on even coordinates, as a WebP frame's must be)
    /// holding every pixel that differs between `old` and `frame`; nil when none does.
    static func changed(from old: UnsafeRawPointer, to frame: FramePixels) -> (x: Int, y: Int, width: Int, height: Int)? {
        let new = UnsafeRawPointer(frame.data)
        let rowBytes = frame.width * 4
        var top = -1, bottom = -1
        for y in 0..<frame.height where memcmp(old + y * frame.stride, new + y * frame.stride, rowBytes) != 0 {
            if top < 0 { top = y }
            bottom = y
        }
        guard top >= 0 else { return nil }
        var left = frame.width, right = -1
        for y in top...bottom {
            let a = (old + y * frame.stride).assumingMemoryBound(to: UInt32.self)
            let b = (new + y * frame.stride).assumingMemoryBound(to: UInt32.self)
            var x = 0
            while x < left && a[x] == b[x] { x += 1 }
            if x < left { left = x }
            var r = frame.width - 1
            while r > right && a[r] == b[r] { r -= 1 }
            if r > right { right = r }
        }
        let x = left & ~1, y = top & ~1
        return (x, y, right + 1 - x, bottom + 1 - y)
    }
}

/// Animated PNG (APNG): each distinct frame coded by the PNG encoder, its IDAT data moved into
/// the frame's fdAT chunks; the first frame is the default image, so a viewer without APNG
/// shows the first frame.
final class APNGWriter: FrameEncoder {
    private let fps: Int, loop: Int
    private var header: [UInt8] = []
    /// Each frame's compressed data and how many frame times it shows.
    private var frames: [(data: [UInt8], count: Int)] = []

    init(fps: Int, loop: Int) { (self.fps, self.loop) = (fps, loop) }

    func add(_ frame: FramePixels) throws {
        let png = try ImageEncoder.png(frame.data, width: frame.width, height: frame.height, stride: frame.stride,
                                       rgb24: frame.opaque, compression: .fast, keepChannels: true)
        var data: [UInt8] = []
        for chunk in PNGChunks.parse(png) ?? [] {
            if chunk.type == "IHDR", header.isEmpty { header = Array(chunk.data) }
            if chunk.type == "IDAT" { data += chunk.data }
        }
        guard !header.isEmpty, !data.isEmpty else { throw RenderError.image("encoding APNG: frame \(frames.count + 1) was not coded") }
        frames.append((data, 1))
    }

    func extend() throws {
        guard !frames.isEmpty else { return }
        frames[frames.count - 1].count += 1
    }

    func finish() throws -> [UInt8] {
        let chunk = PNGChunks.make, be32 = PNGChunks.be32, be16 = PNGChunks.be16
        var out = PNGChunks.signature
        out += chunk("IHDR", header)
        out += chunk("acTL", be32(frames.count) + be32(loop))
        let width = Array(header[0..<4]), height = Array(header[4..<8])
        var sequence = 0
        for (index, frame) in frames.enumerated() {
            // Whole-canvas frames, replacing what was there (blend op SOURCE, dispose NONE).
            let delay = be16(frame.count) + be16(fps)
            out += chunk("fcTL", be32(sequence) + width + height + be32(0) + be32(0) + delay + [0, 0])
            sequence += 1
            // IDAT chunks stay under 1 MiB each, as encoders commonly write them.
            var at = 0
            repeat {
                let piece = Array(frame.data[at..<min(frame.data.count, at + (1 << 20))])
                if index == 0 { out += chunk("IDAT", piece) } else { out += chunk("fdAT", be32(sequence) + piece); sequence += 1 }
                at += piece.count
            } while at < frame.data.count
        }
        out += chunk("IEND", [])
        return out
    }
}

/// H.264 MP4 through ffmpeg (the caller's): raw frames streamed to its input as they are drawn,
/// the file written in the caller's temporary folder and read back. yuv420p, as players and
/// the social sites take it; an odd side is padded by one pixel (4:2:0 needs even sides).
final class VideoEncoder: FrameEncoder {
    private let child: StreamingChild
    private let output: String, folder: String
    private var last: [UInt8] = []
    private let frameBytes: Int

    init(ffmpeg: String, folder: String, width: Int, height: Int, fps: Int, opaque: Bool) throws {
        output = folder + "/animation.mp4"
        self.folder = folder
        frameBytes = width * height * 4
        do {
            child = try StreamingChild(ffmpeg, [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                "-f", "rawvideo", "-pix_fmt", opaque ? "bgr0" : "bgra", "-s", "\(width)x\(height)", "-r", "\(fps)", "-i", "pipe:0",
                "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18",
                "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", output,
            ], errorFile: folder + "/ffmpeg.log")
        } catch {
            throw RenderError.image("encoding MP4: \(error)")
        }
    }

    func add(_ frame: FramePixels) throws {
        // Rows packed: Cairo's stride for 4-byte pixels is the width's bytes already.
        guard frame.stride == frame.width * 4 else { throw RenderError.image("encoding MP4: unexpected row stride") }
        last = Array(UnsafeBufferPointer(start: frame.data, count: frameBytes))
        try send(last)
    }

    /// A video has a frame every frame time: the last one is sent again.
    func extend() throws { try send(last) }

    private func send(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ child.write($0.baseAddress!, count: $0.count) }) else {
            let (status, message) = child.finish()
            throw RenderError.image("encoding MP4: ffmpeg stopped (exit \(status))\(message.isEmpty ? "" : ": " + message)")
        }
    }

    deinit {
        unlink(output)
        unlink(folder + "/ffmpeg.log")
    }

    func finish() throws -> [UInt8] {
        let (status, message) = child.finish()
        guard status == 0 else { throw RenderError.image("encoding MP4: ffmpeg failed (exit \(status))\(message.isEmpty ? "" : ": " + message)") }
        do {
            return try Posix.readFile(output, as: "the encoded video", limit: 1 << 31)
        } catch {
            throw RenderError.image("encoding MP4: \(error)")
        }
    }
}
