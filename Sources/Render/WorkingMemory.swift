import Support
import Typeset

extension Scene {
    /// About how many bytes drawing and encoding this scene allocate on a canvas of `pixels`
    /// (the size `Renderer.pixelSize` checked against the pixel limit): the canvas,
    /// the copy of a cached background, the encoder's output, a shadow's layer, the restricted
    /// blur's padded surfaces, and the pictures and glyphs the scene holds. A budget reserves
    /// this before the first surface is made; it errs high rather than low.
    func workingBytes(pixels: (width: Int, height: Int), format: OutputFormat, encoding: EncodeOptions = EncodeOptions()) -> Int {
        let canvas = pixels.width * pixels.height * 4
        var surfaces = format.isVector ? 0 : 3
        var pictures = 0, glyphs = 0, rasters = 0
        var shadow = false, restricted = false
        var held = Set<UInt64>()  // a picture drawn in several boxes is held once
        if case let .image(image, _, _, _, _) = background { pictures += image.width * image.height * 4 }
        for item in items {
            switch item {
            case let .text(text):
                shadow = shadow || text.paint.shadow != nil
                restricted = restricted || text.restriction != nil
                glyphs += text.layout.lines.reduce(0) { $0 + $1.runs.reduce(0) { $0 + $1.glyphs.count } }
                rasters += Self.rasterBytes(text.layout, scale: Double(pixels.width) / max(width, 1), format: format)
            case let .image(image, _, _, _, _, _, _, _, _) where held.insert(image.identity).inserted:
                pictures += image.width * image.height * 4
            case .image:
                break
            case .dots:
                break
            }
        }
        // A PDF or SVG rasterises only its blurred part; a raster canvas also keeps those layers.
        if shadow { surfaces += 1 }
        if restricted { surfaces += 2 }
        return 1 << 20 + surfaces * canvas + pictures + glyphs * 96 + rasters + Self.encoderBytes(pixels.width * pixels.height, format, encoding)
    }

    /// What the AVIF encoder (libavif and aom) holds beyond the canvas, per pixel: its YUV
    /// planes and aom's frame buffers, measured at 4,000 x 4,000 (about 9 bytes a pixel for
    /// 4:2:0 and 14 for 4:4:4 above a PNG of the same canvas), with room to spare. The other
    /// encoders work in rows.
    static func encoderBytes(_ pixels: Int, _ format: OutputFormat, _ encoding: EncodeOptions) -> Int {
        guard format == .avif else { return 0 }
        return pixels * (encoding.avifChroma == .yuv444 ? 20 : 12)
    }

    /// What aom holds for an AVIF image sequence beyond the canvases every animation keeps,
    /// per pixel: frames it looks ahead over before it writes one. Measured with
    /// `bench/animation-story.json` at 1080x1920 and 2160x3840 (peak RSS above the same
    /// animation as WebP: 33 and 24 bytes a pixel for 4:2:0, 62 and 49 for 4:4:4), with room
    /// to spare. A still AVIF's encoder is `encoderBytes`.
    static func sequenceEncoderBytes(_ pixels: Int, _ encoding: EncodeOptions) -> Int {
        pixels * (encoding.avifChroma == .yuv444 ? 72 : 40)
    }

    /// The glyph images Cairo rasterises for a layout: each distinct glyph of each font and
    /// size once, at most `GlyphRaster.maxEm` a side (larger ones are never cached whole), and
    /// no more glyphs than Cairo's cache holds. A PDF embeds outline glyphs as fonts: only its
    /// colour glyphs are images.
    static func rasterBytes(_ layout: Layout, scale: Double, format: OutputFormat) -> Int {
        struct Key: Hashable { var font: Int, size: Double, glyph: UInt32 }
        var seen = Set<Key>(), bytes = 0
        for line in layout.lines {
            for run in line.runs {
                let color = layout.fonts[run.font].isColor
                guard !format.isVector || color else { continue }
                let each = GlyphRaster.cachedBytes(size: run.size, scale: scale, color: color)
                for glyph in run.glyphs where seen.insert(Key(font: run.font, size: run.size, glyph: glyph.id)).inserted {
                    bytes += each
                    if seen.count >= GlyphRaster.cachedGlyphLimit { return bytes }
                }
            }
        }
        return bytes
    }
}
