import Flags
import Render
import Support

/// Encoder settings for raster outputs, shared by every command that writes images; parsed by
/// the encoder's option table, as the service's fields are.
struct EncodeFlags: FlagGroup {
    @Option("png-compression", help: modelHelp("png-compression", in: EncodeOptions.options)) var pngCompression: String?
    @Option("quality", help: modelHelp("quality", in: EncodeOptions.options)) var quality: String?
    @Flag("lossless", help: modelHelp("lossless", in: EncodeOptions.options)) var lossless = false

    func options() throws -> EncodeOptions {
        var options = EncodeOptions()
        try applyFlags([("png-compression", pngCompression), ("quality", quality), ("lossless", lossless ? "true" : nil)],
                       to: &options, table: EncodeOptions.options)
        return options
    }
}

/// JPEG has no alpha: a see-through card is flattened over white, and the user is told.
func warnIfFlattened(format: OutputFormat, opaque: Bool) {
    if format == .jpeg && !opaque { warn("JPEG has no transparency: the image is composited over white") }
}
