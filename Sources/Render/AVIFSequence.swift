import CAVIFCodec
import Codecs

/// Animated AVIF (an image sequence) through libavif and aom, with the still AVIF's quality,
/// speed and chroma settings. libavif 0.11 (Debian 12) writes no repetition count, so the
/// finished file gets its edit lists from `AVIFPlayCount`, as libavif 1.x would write them.
final class AVIFSequence: FrameEncoder {
    private let sequence: OpaquePointer
    private let loop: Int

    init(fps: Int, loop: Int, options: EncodeOptions) throws {
        self.loop = loop
        var message = [CChar](repeating: 0, count: 256)
        let xmp = options.description.map(ImageDescription.xmp) ?? []
        guard let sequence = hl_avif_sequence_new(Int32(fps), Int32(options.quality.value), Int32(options.avifSpeed),
                                                  options.avifChroma == .yuv444 ? 1 : 0, xmp, xmp.count, &message, message.count) else {
            throw RenderError.image("encoding animated AVIF: \(Self.text(message))")
        }
        self.sequence = sequence
    }

    deinit { hl_avif_sequence_free(sequence) }

    func add(_ frame: FramePixels) throws {
        var message = [CChar](repeating: 0, count: 256)
        let layout = Int32(frame.opaque ? HL_AVIF_RGB24 : HL_AVIF_ARGB32_PREMULTIPLIED)
        guard hl_avif_sequence_add(sequence, frame.data, Int32(frame.width), Int32(frame.height), Int32(frame.stride), layout,
                                   &message, message.count) == 0 else {
            throw RenderError.image("encoding animated AVIF: \(Self.text(message))")
        }
    }

    func extend() throws { hl_avif_sequence_extend(sequence) }

    func finish() throws -> [UInt8] {
        var message = [CChar](repeating: 0, count: 256)
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard hl_avif_sequence_finish(sequence, &out, &length, &message, message.count) == 0, let out else {
            throw RenderError.image("encoding animated AVIF: \(Self.text(message))")
        }
        defer { hl_avif_free(out) }
        do {
            return try AVIFPlayCount.write(plays: loop, into: Array(UnsafeBufferPointer(start: out, count: length)))
        } catch let error as AVIFPlayCount.Malformed {
            throw RenderError.image("encoding animated AVIF: writing its play count: \(error)")
        }
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
