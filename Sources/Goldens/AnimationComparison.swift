import Codecs
import Support

/// Two animations (animated WebP or APNG) compared frame by frame, each frame's pixels under
/// the same tolerance as an image's, and the frames' count and durations: what `compare` of two
/// animations reports and what a golden suite's animated card is judged by. Frames are read one
/// at a time from both files.
package struct AnimationOutcome: Sendable {
    /// Frames in each file.
    package var frames: (expected: Int, actual: Int) = (0, 0)
    /// The canvases, when they differ (then no frame is compared).
    package var sizes: (expected: (width: Int, height: Int), actual: (width: Int, height: Int))?
    /// Frames whose pixels differ: their number (from 1), start (ms) and counted pixels.
    package var differing: [(frame: Int, start: Int, pixels: Int)] = []
    /// Frames shown for other times: their number and each file's duration (ms).
    package var timing: [(frame: Int, expected: Int, actual: Int)] = []
    /// The expected animation's length (ms).
    package var milliseconds = 0.0
    /// The first differing frame's comparison (its images, and its panel when one was asked).
    package var firstDiffering: Comparison.Outcome?

    /// A time from a file, in whole milliseconds (a hostile file's times are clamped).
    static func ms(_ milliseconds: Double) -> Int { Checked.clamped(milliseconds, .toNearestOrAwayFromZero, in: 0...Int(Int32.max)) }

    /// Same frames, same pixels within the tolerance, same timing.
    package var same: Bool { sizes == nil && differing.isEmpty && timing.isEmpty && frames.expected == frames.actual }

    /// The verdict in lines, the first five differing frames and timings named.
    package var lines: [String] {
        if let sizes { return [Comparison.sizesDiffer(expected: sizes.expected, actual: sizes.actual)] }
        if same { return ["animations match: \(frames.expected) frames, \(AnimationOutcome.ms(milliseconds)) ms"] }
        var lines: [String] = []
        if frames.expected != frames.actual { lines.append("frame counts differ: expected \(frames.expected), actual \(frames.actual)") }
        if !differing.isEmpty {
            let shown = differing.prefix(5).map { "\($0.frame) (at \($0.start) ms, \($0.pixels) pixels)" }.joined(separator: ", ")
            lines.append("\(differing.count) of \(min(frames.expected, frames.actual)) frames differ: \(shown)\(differing.count > 5 ? ", ..." : "")")
        }
        if !timing.isEmpty {
            let shown = timing.prefix(5).map { "frame \($0.frame) shows \($0.expected) ms, actual \($0.actual) ms" }.joined(separator: "; ")
            lines.append("timing differs: \(shown)\(timing.count > 5 ? "; ..." : "")")
        }
        return lines
    }
}

extension Comparison {
    /// Two animations, frame by frame (see `AnimationOutcome`). `panel`: the first differing
    /// frame's difference panel is drawn.
    package static func compareAnimations(expected: [UInt8], actual: [UInt8], tolerance: GoldenTolerance, maxPixels: Int,
                                          panel: Bool = false) throws(ComparisonError) -> AnimationOutcome {
        func open(_ bytes: [UInt8], _ image: ComparedImage) throws(ComparisonError) -> AnimationFrames {
            do { return try AnimationFrames(bytes, maxPixels: maxPixels) } catch { throw ComparisonError(image: image, reason: "\(error)") }
        }
        func next(_ frames: AnimationFrames, _ image: ComparedImage) throws(ComparisonError) -> (image: RGBAImage, milliseconds: Double)? {
            do { return try frames.next() } catch { throw ComparisonError(image: image, reason: "\(error)") }
        }
        let a = try open(expected, .expected), b = try open(actual, .actual)
        var outcome = AnimationOutcome()
        if (a.width, a.height) != (b.width, b.height) {
            outcome.sizes = ((a.width, a.height), (b.width, b.height))
            outcome.frames = (a.count, b.count)
            return outcome
        }
        // Times in ms: WebP stores whole milliseconds a frame, APNG fractions of a second, so a
        // frame's start and length agree when within a millisecond.
        var clock = (0.0, 0.0)
        while true {
            let fa = try next(a, .expected), fb = try next(b, .actual)
            if fa != nil { outcome.frames.expected += 1 }
            if fb != nil { outcome.frames.actual += 1 }
            guard let fa, let fb else {
                if fa == nil && fb == nil { break }
                continue  // one has more frames: counted, not compared
            }
            let frame = outcome.frames.expected
            if abs(clock.0 - clock.1) > 1 || abs(fa.milliseconds - fb.milliseconds) > 1 {
                outcome.timing.append((frame, AnimationOutcome.ms(fa.milliseconds), AnimationOutcome.ms(fb.milliseconds)))
            }
            let compared: Outcome
            do {
                compared = try compare(expected: fa.image, actual: fb.image, tolerance: tolerance, maxPixels: maxPixels,
                                       panel: panel && outcome.firstDiffering == nil ? .whenCompared : .none)
            } catch {
                throw ComparisonError(image: nil, reason: "frame \(frame): \(error)")
            }
            if compared.verdict != .match {
                outcome.differing.append((frame, AnimationOutcome.ms(clock.0), compared.result.differentPixels))
                if outcome.firstDiffering == nil { outcome.firstDiffering = compared }
            }
            clock.0 += fa.milliseconds
            clock.1 += fb.milliseconds
        }
        outcome.milliseconds = clock.0
        return outcome
    }
}
