
/// The largest image a run takes, in pixels: canvases, pictures, compared images and the
/// buffers they need. One definition for every command's `--max-pixels` (the service's option
/// has the same range and a lower default: it renders for others).
package struct PixelLimit: Sendable, Equatable {
    package static let defaultPixels = 100_000_000
    package static let range = 1...1_000_000_000_000
    package var pixels = PixelLimit.defaultPixels

    package init(pixels: Int = PixelLimit.defaultPixels) { self.pixels = pixels }

    /// The `max-pixels` row, for what reads it alone.
    package static let maxPixelsRow = OptionDefinition<PixelLimit>("max-pixels", "n", schema: "integer",
        "Refuse canvases, pictures and compared images with more pixels than this (default 100,000,000), before allocating them.") {
        $0.pixels = try $1.integer(in: range)
    }

    package static let options: [OptionDefinition<PixelLimit>] = [maxPixelsRow]
}
