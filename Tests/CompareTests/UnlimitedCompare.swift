@testable import Compare
import Support

extension ImageDiff {
    /// The metric tests' images are tiny: compared without a pixel budget.
    static func compare(_ expected: RGBAImage, _ actual: RGBAImage, options: DiffOptions = DiffOptions(),
                        diffPanel: UnsafeMutablePointer<RGBAImage>? = nil) -> DiffResult {
        try! compare(expected, actual, options: options, maxPixels: .max, diffPanel: diffPanel)
    }
}
