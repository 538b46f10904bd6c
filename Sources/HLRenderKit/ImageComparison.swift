import Codecs
import Render
import Compare
import Goldens
import Support

/// How two images are judged.
public enum ComparisonMetric: String, Sendable, CaseIterable {
    /// pixelmatch 7's perceptual rule: pixels over the YIQ threshold counted against the limits.
    case pixelmatch
    /// One structural-similarity score per image (as scikit-image computes it), against
    /// `minimumSSIM`.
    case ssim
}

/// How two images are compared: pixelmatch 7's perceptual rule (YIQ delta over `threshold`,
/// anti-aliased pixels not counted) and how many counted pixels still pass, or an SSIM score.
public struct ComparisonOptions: Sendable {
    /// Which metric decides (default pixelmatch).
    public var metric = ComparisonMetric.pixelmatch
    /// With the SSIM metric, the lowest score that passes, 0 to 1.
    public var minimumSSIM = 0.99
    /// The largest perceptual colour delta still taken as equal, 0 to 1.
    public var threshold = 0.1
    /// Count pixels that look like anti-aliasing too.
    public var countAntialiasing = false
    /// Pass with up to this many counted pixels.
    public var maxDifferentPixels = 0
    /// Pass with up to this fraction of counted pixels, 0 to 1.
    public var maxDifferentRatio = 0.0

    /// The defaults: threshold 0.1, anti-aliasing not counted, no pixel may differ.
    public init() {}

    /// Checked by the comparison options' table, as the CLI's flags and a manifest's keys are.
    func tolerance() throws(HLRenderError) -> GoldenTolerance {
        var tolerance = GoldenTolerance()
        let values: [(String, JSONValue)] = [("metric", .string(metric.rawValue)), ("min-ssim", .number(minimumSSIM)),
                                             ("threshold", .number(threshold)), ("count-aa", .bool(countAntialiasing)),
                                             ("max-diff-pixels", .number(Double(maxDifferentPixels))),
                                             ("max-diff-ratio", .number(maxDifferentRatio))]
        for (name, value) in values {
            do {
                try tolerance.set(name, .json(value))
            } catch {
                throw HLRenderError(.input, path: name, (error as? OptionError)?.reason ?? "\(error)")
            }
        }
        return tolerance
    }
}

/// The verdict on an image against its expected one.
public struct ImageComparison: Sendable {
    /// Whether it passes under the options.
    public var passed: Bool
    /// Pixels counted as different.
    public var differentPixels: Int
    /// Pixels over the threshold taken as anti-aliasing (not counted).
    public var antialiasedPixels: Int
    /// The two sizes differ: the images fail whatever the options (sizes are read from the
    /// headers, nothing is decoded), as `hlrender compare`, golden suites and the service do.
    public var sizesDiffer: Bool
    /// One line, in a golden suite's words: "identical", "same pixels", "3 pixels differ, within
    /// the limit", "81000 pixels differ (0.98%); colour only", or the two sizes.
    public var summary: String
    /// Why the images differ, when pixels are over the threshold or the sizes differ: "size",
    /// "shifted", "anti-aliasing", "colour" or "changed".
    public var why: String?
    /// With the SSIM metric, the score (1: identical).
    public var ssim: Double?
    /// Expected faded to grey, counted pixels red, anti-aliasing yellow, beside the two images
    /// (PNG); for animations, the first differing frame's difference alone; nil when they pass
    /// or their sizes differ.
    public var differencePNG: [UInt8]?
}

extension HLRenderer {
    /// Compares `actual` with `expected` (a golden; PNG, JPEG or WebP) through the one comparison of
    /// `hlrender compare`, golden suites and the service: equal bytes pass at once, different
    /// sizes fail from the headers, otherwise the pixels decide. Two animations (APNG or
    /// animated WebP) are compared frame by frame, count and timing included, as a golden suite
    /// compares them; the difference image is then the first differing frame's.
    public func compare(expected: [UInt8], actual: [UInt8], options: ComparisonOptions = ComparisonOptions()) async throws(HLRenderError) -> ImageComparison {
        let maxPixels = environment.maxPixels
        let tolerance = try options.tolerance()
        if AnimationFrames.isAnimation(expected) || AnimationFrames.isAnimation(actual) {
            return try await compareAnimations(expected: expected, actual: actual, tolerance: tolerance)
        }
        return try await run { _ in
            let outcome: Comparison.Outcome
            do {
                outcome = try Comparison.compare(expected: expected, actual: actual, tolerance: tolerance, maxPixels: maxPixels,
                                                 panel: .whenCompared)
            } catch let error as ComparisonError {
                throw HLRenderError(.input, path: error.image?.rawValue ?? "", error.reason)
            }
            let result = outcome.result
            let summary = GoldenCheck.message(outcome)
            var difference: [UInt8]?
            if outcome.verdict == .differ, let panel = outcome.panel, let a = outcome.expected, let b = outcome.actual {
                difference = try PNGCodec.encode(ImageDiff.threePanel(expected: a, difference: panel, actual: b))
            }
            return ImageComparison(passed: outcome.verdict == .match, differentPixels: result.differentPixels,
                                   antialiasedPixels: result.antialiasedPixels, sizesDiffer: outcome.verdict == .sizeMismatch,
                                   summary: summary, why: outcome.kind?.name, ssim: result.ssim, differencePNG: difference)
        }
    }
}

extension HLRenderer {
    /// Animations (or an animation against a still image) through the golden suites' check.
    private func compareAnimations(expected: [UInt8], actual: [UInt8], tolerance: GoldenTolerance) async throws(HLRenderError) -> ImageComparison {
        let result = try await goldenCheck(actual, golden: expected, name: "actual", tolerance: tolerance, panel: true)
        // The check reports an unreadable golden as the card's error; here it is the input's.
        if result.status == .error { throw HLRenderError(.input, path: "expected", result.message) }
        return ImageComparison(passed: result.status == .same || result.status == .within, differentPixels: result.diff?.differentPixels ?? 0,
                               antialiasedPixels: result.diff?.antialiasedPixels ?? 0, sizesDiffer: result.sizesDiffer,
                               summary: result.message, why: nil, ssim: result.diff?.ssim, differencePNG: result.difference)
    }
}

extension HLRenderer {
    /// `GoldenCheck.check` (a golden suite's row check) on the renderer's threads, its
    /// comparison errors as input errors.
    func goldenCheck(_ actual: [UInt8], golden: [UInt8]?, name: String, tolerance: GoldenTolerance,
                     panel: Bool) async throws(HLRenderError) -> GoldenResult {
        let maxPixels = environment.maxPixels
        return try await run { _ in
            var result = GoldenResult(name: name, row: 1, status: .error, message: "", spec: "", milliseconds: 0)
            do {
                try GoldenCheck.check(actual, golden: golden, tolerance: tolerance, maxPixels: maxPixels, panel: panel, into: &result)
            } catch let error as ComparisonError {
                throw HLRenderError(.input, path: error.image?.rawValue ?? "", error.reason)
            }
            return result
        }
    }
}

/// A golden check's outcome.
public enum GoldenVerdict: Sendable, Equatable {
    /// The render matches its golden under the options.
    case passed(ImageComparison.Summary)
    /// It does not; the comparison says by how much.
    case failed(ImageComparison.Summary)
    /// No golden was there (nothing was written).
    case missing
    /// The golden was written (it was missing, or `update` was asked and it differed).
    case recorded
}

extension ImageComparison {
    /// The numbers of a comparison, for a verdict.
    public struct Summary: Sendable, Equatable {
        /// Pixels counted as different.
        public var differentPixels: Int
        /// Whether the sizes differ.
        public var sizesDiffer: Bool
        /// One line.
        public var text: String
    }

}

extension HLRenderer {
    /// Checks PNG `actual` against the golden file at `goldenPath`, as a golden suite does
    /// (`hlrender batch --expect-dir`). With `update`, a missing or failing golden is
    /// (re)written atomically and the verdict is `.recorded`; a passing golden is never
    /// touched, so a baseline stays byte-for-byte what it was when nothing changed.
    public func checkGolden(_ actual: [UInt8], goldenPath: String, options: ComparisonOptions = ComparisonOptions(),
                            update: Bool = false) async throws(HLRenderError) -> GoldenVerdict {
        let golden: [UInt8]?
        do {
            golden = try environment.readFile(goldenPath)
        } catch is RenderEnvironment.FileNotFound {
            golden = nil
        } catch {
            throw HLRenderError.from(error)
        }
        // The check a golden suite makes (animations frame by frame, sizes from the headers).
        let result = try await goldenCheck(actual, golden: golden, name: goldenPath, tolerance: try options.tolerance(), panel: false)
        let summary = ImageComparison.Summary(differentPixels: result.diff?.differentPixels ?? 0, sizesDiffer: result.sizesDiffer,
                                              text: result.message)
        switch result.status {
        case .same, .within: return .passed(summary)
        case .error: throw HLRenderError(.input, path: goldenPath, result.message)
        case .new, .missing: guard update else { return .missing }
        case .changed: guard update else { return .failed(summary) }
        }
        do {
            try environment.writeFile(goldenPath, actual)
        } catch {
            throw HLRenderError(.system, "\(error)")
        }
        return .recorded
    }
}
