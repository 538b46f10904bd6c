import Flags
import Support

/// `--max-pixels`, through the one definition (PixelLimit.options).
struct PixelLimitFlags: FlagGroup {
    @FlagList(PixelLimit.options.flagSpecs(["max-pixels"])) var given: GivenFlags

    /// The limit given, else the default; a refused value names the flag.
    func pixels() throws -> Int {
        var limit = PixelLimit()
        try PixelLimit.options.apply(given, to: &limit)
        return limit.pixels
    }
}
