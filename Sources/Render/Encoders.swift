import CCairo
import Support
import CPNGCodec
import CJPEGCodec
import CWebP
import CAVIFCodec

/// How much effort PNG compression takes; the decoded pixels are the same at every setting.
package enum PNGCompression: String, CaseIterable, Sendable {
    case fast, `default`, small

    var code: Int32 {
        switch self {
        case .fast: Int32(HL_PNG_FAST)
        case .default: Int32(HL_PNG_DEFAULT)
        case .small: Int32(HL_PNG_SMALL)
        }
    }
}

/// JPEG, lossy WebP and AVIF quality, 1 to 100.
package struct Quality: Sendable, Equatable, CustomStringConvertible {
    package let value: Int
    package init(_ value: Int) throws(ValueError) {
        self.value = try Checked.int(value, "quality", in: 1...100)
    }
    package static let `default` = try! Quality(90)
    package var description: String { String(value) }
}

/// Encoder settings for raster outputs.
package struct EncodeOptions: Sendable {
    package var pngCompression: PNGCompression = .fast
    /// JPEG and lossy WebP quality.
    package var quality = Quality.default
    /// WebP without loss.
    package var lossless = false
    /// AVIF encoder effort: 0 (slowest, smallest) to 10.
    package var avifSpeed = 8
    /// AVIF chroma: full resolution (4:4:4) or halved both ways (4:2:0, the default).
    package var avifChroma = AVIFChroma.yuv420
    /// The image's description as the caller gives it (`--alt`), over the card's visible text;
    /// `noAlt`: none at all.
    package var alt: String?
    package var noAlt = false
    /// What goes into the file (see `ImageDescription`): set by the render from the above.
    package var description: String?
    package init() {}

    /// The encoder options, defined once for the CLI's flags and the service's fields.
    package static let options: [OptionDefinition<EncodeOptions>] = [
        OptionDefinition("png-compression", "fast|default|small", schema: "string",
                         "PNG compression: fast, default or small (the same pixels at each; default fast).") {
            $0.pngCompression = try $1.choice(PNGCompression.self)
        },
        OptionDefinition("quality", "1-100", schema: "integer",
                         "JPEG and lossy WebP quality, 1 to 100 (default 90; JPEG keeps full chroma from 95).") {
            $0.quality = try Quality(try $1.integer(in: 1...100))
        },
        OptionDefinition("lossless", "bool", schema: "boolean", "WebP without loss.") { $0.lossless = try $1.bool() },
        OptionDefinition("avif-speed", "0-10", schema: "integer",
                         "AVIF encoder speed, 0 (slowest, smallest file) to 10 (default 8).") {
            $0.avifSpeed = try $1.integer(in: 0...10)
        },
        OptionDefinition("alt", "text", schema: "string",
                         "The image's description (alt text) written into PNG, JPEG, WebP and AVIF files and the service's Image-Description header (default: the card's visible text in reading order).") {
            $0.alt = try $1.string()
        },
        OptionDefinition("no-alt", "bool", schema: "boolean", "Write no description into the image.") { $0.noAlt = try $1.bool() },
        OptionDefinition("avif-chroma", "420|444", schema: "string",
                         "AVIF chroma: 420 (colour at half resolution, the default) or 444 (full: sharper coloured text, larger).") {
            $0.avifChroma = try $1.choice(AVIFChroma.self)
        },
    ]
}

/// How much colour resolution an AVIF keeps.
package enum AVIFChroma: String, CaseIterable, Sendable {
    /// Colour at half resolution both ways, as video and most photos.
    case yuv420 = "420"
    /// Colour at full resolution.
    case yuv444 = "444"
}

/// The formats encoded from pixels (a PDF is drawn, not encoded).
package enum RasterFormat: String, CaseIterable, Sendable {
    case png, jpeg, webp, avif
}

extension OutputFormat {
    /// The image format, or nil for PDF.
    package var rasterFormat: RasterFormat? { RasterFormat(rawValue: rawValue) }
}

/// Raster encoders: over a drawn Cairo image surface (drawing never depends on which one
/// runs), or over any straight-RGBA image (a comparison's diff, a test's pixels).
package enum ImageEncoder {
    /// `image` as PNG, JPEG (flattened over white) or WebP.
    package static func encode(_ image: RGBAImage, as format: RasterFormat, options: EncodeOptions = EncodeOptions()) throws -> [UInt8] {
        let checked: RasterImage
        do { checked = try RasterImage(image) } catch { throw RenderError.invalidOption("\(error)") }
        let surface = try ImagePainter.surface(checked)
        defer { cairo_surface_destroy(surface) }
        return try encode(surface, format: format, options: options)
    }

    /// `oneShot`: a large PNG may be coded on two threads (see `RenderOptions.oneShot`).
    static func encode(_ surface: OpaquePointer, format: RasterFormat, options: EncodeOptions, oneShot: Bool = false) throws -> [UInt8] {
        cairo_surface_flush(surface)
        let data = cairo_image_surface_get_data(surface)!
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let rgb24 = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        let bytes: [UInt8]
        switch format {
        case .png:
            bytes = try png(data, width: width, height: height, stride: stride, rgb24: rgb24, compression: options.pngCompression, oneShot: oneShot)
        case .jpeg:
            if !rgb24 { flattenOverWhite(data, width: width, height: height, stride: stride) }
            bytes = try jpeg(data, width: width, height: height, stride: stride, quality: options.quality.value)
        case .webp:
            bytes = try webp(data, width: width, height: height, stride: stride, rgb24: rgb24, options: options)
        case .avif:
            bytes = try avif(data, width: width, height: height, stride: stride, rgb24: rgb24, options: options)
        }
        return ImageDescription.embed(options.description ?? "", in: bytes, format: format)
    }

    /// `keepChannels`: RGB or RGBA as the layout is, never fewer (an APNG's frames).
    static func png(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, rgb24: Bool,
                    compression: PNGCompression, oneShot: Bool = false, keepChannels: Bool = false) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 256)
        let layout = (rgb24 ? Int32(HL_PNG_RGB24) : Int32(HL_PNG_ARGB32_PREMULTIPLIED)) | (keepChannels ? Int32(HL_PNG_KEEP_CHANNELS) : 0)
        let status = hl_png_encode(data, Int32(width), Int32(height), Int32(stride), layout, compression.code, oneShot ? 1 : 0,
                                   &out, &length, &error, error.count)
        guard status == 0, let out else {
            throw RenderError.cairo("encoding PNG: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { hl_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// Premultiplied pixels composited over white, in place (JPEG has no alpha).
    static func flattenOverWhite(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        for y in 0..<height {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x], a = p >> 24
                if a == 255 { continue }
                let white = 255 - a
                row[x] = 0xFF00_0000 | ((p >> 16 & 255) + white) << 16 | ((p >> 8 & 255) + white) << 8 | ((p & 255) + white)
            }
        }
    }

    static func jpeg(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, quality: Int) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        // Cairo's words are BGRA in memory on little-endian machines: the encoder reads BGRX
        // (one channel of it when the image is gray).
        let gray = hl_words_are_gray(data, Int32(width), Int32(height), Int32(stride))
        let status = hl_jpeg_encode(data, Int32(width), Int32(height), Int32(stride), Int32(quality), gray, &out, &size,
                                    &message, message.count)
        defer { hl_jpeg_free(out) }
        guard status == 0, let out else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw RenderError.cairo("encoding JPEG: \(text)")
        }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    static func webp(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, rgb24: Bool,
                     options: EncodeOptions) throws -> [UInt8] {
        let bgra = straightBGRA(data, width: width, height: height, stride: stride, rgb24: rgb24)
        var out: UnsafeMutablePointer<UInt8>?
        let size = options.lossless
            ? WebPEncodeLosslessBGRA(bgra, Int32(width), Int32(height), Int32(width * 4), &out)
            : WebPEncodeBGRA(bgra, Int32(width), Int32(height), Int32(width * 4), Float(options.quality.value), &out)
        defer { if let out { WebPFree(out) } }
        guard size > 0, let out else { throw RenderError.cairo("encoding WebP failed") }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// Cairo's premultiplied words as straight BGRA bytes, rows packed (what libwebp takes).
    static func straightBGRA(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, rgb24: Bool) -> [UInt8] {
        var bgra = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x]
                var a = p >> 24, r = p >> 16 & 255, g = p >> 8 & 255, b = p & 255
                if rgb24 { a = 255 } else if a != 0 && a != 255 {
                    r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a
                }
                let i = (y * width + x) * 4
                bgra[i] = UInt8(b); bgra[i + 1] = UInt8(g); bgra[i + 2] = UInt8(r); bgra[i + 3] = UInt8(a)
            }
        }
        return bgra
    }

    static func avif(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, rgb24: Bool,
                     options: EncodeOptions) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let xmp = options.description.map(ImageDescription.xmp) ?? []
        let status = hl_avif_encode(data, Int32(width), Int32(height), Int32(stride),
                                    Int32(rgb24 ? HL_AVIF_RGB24 : HL_AVIF_ARGB32_PREMULTIPLIED), Int32(options.quality.value),
                                    Int32(options.avifSpeed), options.avifChroma == .yuv444 ? 1 : 0, xmp, xmp.count,
                                    &out, &size, &message, message.count)
        defer { hl_avif_free(out) }
        guard status == 0, let out else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw RenderError.image("encoding AVIF: \(text)")
        }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
