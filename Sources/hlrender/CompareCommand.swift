import Render
import Flags
import Compare
import Support

struct CompareCommand: Command {
    static let info = CommandInfo(
        name: "compare",
        abstract: "Compare two PNG images for golden-image tests.",
        discussion: """
            Pixels are compared by perceptual colour difference in YIQ space (alpha blended over \
            white); pixels that look like anti-aliasing in either image are not counted unless \
            --count-aa. Any PNG works: grey, palette, RGB, RGBA, 1 to 16 bits, interlaced (16-bit \
            samples are scaled to 8 bits). A pixel whose alphas differ by more than threshold x 255 \
            counts as different even when the colours over white agree.
            Exit status: 0 match, 1 images differ, 2 sizes differ, 3 bad input (unreadable, not a PNG, bad option).
            """)

    @Argument(help: Help("The expected (golden) PNG.", valueName: "expected.png")) var expected: String
    @Argument(help: Help("The PNG to check.", valueName: "actual.png")) var actual: String
    @Group var options: CompareOptions
    @Group var pixelLimit: PixelLimitFlags
    @Group var limits: InputLimits

    func run() throws {
        _ = try options.tolerance()  // bad options before any file work
        let maxPixels = try pixelLimit.pixels()
        let status = try runComparison(expected: try Posix.readFile(expected, as: "image", limit: limits.image),
                                       actual: try Posix.readFile(actual, as: "image", limit: limits.image),
                                       names: (expected, actual), options: options, maxPixels: maxPixels)
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
