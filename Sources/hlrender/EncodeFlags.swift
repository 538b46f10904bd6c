import ArgumentParser
import Render
import Support

extension PNGCompression: ExpressibleByArgument {}

/// Encoder settings for raster outputs, shared by every command that writes images.
struct EncodeFlags: ParsableArguments {
    @Option(help: "PNG compression: fast, default or small (the same pixels at each; default fast).")
    var pngCompression: PNGCompression = .fast
    @Option(help: "JPEG and lossy WebP quality, 1 to 100 (default 90; JPEG keeps full chroma from 95).")
    var quality: Int = 90
    @Flag(help: "WebP without loss.") var lossless = false

    func options() throws -> EncodeOptions {
        var options = EncodeOptions()
        options.pngCompression = pngCompression
        options.quality = try flag("--quality") { () throws(ValueError) in try Quality(quality) }
        options.lossless = lossless
        return options
    }
}

/// JPEG has no alpha: a see-through card is flattened over white, and the user is told.
func warnIfFlattened(format: OutputFormat, opaque: Bool) {
    if format == .jpeg && !opaque { warn("JPEG has no transparency: the image is composited over white") }
}
