import Flags
import Render
import Support

/// Encoder settings for raster outputs, shared by every command that writes images; parsed by
/// the encoder's option table, as the service's fields are.
struct EncodeFlags: FlagGroup {
    @FlagList(EncodeOptions.options.flagSpecs(EncodeOptions.options.map(\.name))) var given: GivenFlags

    func options() throws -> EncodeOptions {
        var options = EncodeOptions()
        try EncodeOptions.options.apply(given, to: &options)
        return options
    }
}

/// JPEG has no alpha: a see-through card is flattened over white, and the user is told.
func warnIfFlattened(format: OutputFormat, opaque: Bool) {
    if format == .jpeg && !opaque { warn("JPEG has no transparency: the image is composited over white") }
}
