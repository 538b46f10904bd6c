import Codecs
import Compare
import Goldens
import Render
import Support

/// `compare` of two animations (animated WebP or APNG) through `Comparison.compareAnimations`:
/// the report names the first differing frames.
func runAnimationComparison(expected: [UInt8], actual: [UInt8], names: (String, String), options: CompareOptions,
                            tolerance: GoldenTolerance, maxPixels: Int) throws -> Int32 {
    let outcome: AnimationOutcome
    do {
        outcome = try Comparison.compareAnimations(expected: expected, actual: actual, tolerance: tolerance, maxPixels: maxPixels,
                                                   panel: options.diff != nil)
    } catch {
        switch error.image {
        case .expected?: throw CLIFailure(message: "\(names.0): \(error)")
        case .actual?: throw CLIFailure(message: "\(names.1): \(error)")
        case nil: throw CLIFailure(message: "\(error)")
        }
    }
    let frames = (outcome.frames.expected, outcome.frames.actual)
    if outcome.sizes != nil {
        report(outcome.lines, json: options.json, verdict: "size-mismatch", frames: frames, differing: [], timing: [])
        return ExitStatus.sizesDiffer
    }
    if let path = options.diff, let first = outcome.firstDiffering, let e = first.expected, let c = first.actual {
        let blank = RGBAImage(width: e.width, height: e.height, fill: (255, 255, 255, 255))
        try CLIOutput.write(try PNGCodec.encode(ImageDiff.threePanel(expected: e, difference: first.panel ?? blank, actual: c)), to: path)
    }
    report(outcome.lines, json: options.json, verdict: outcome.same ? "match" : "differ", frames: frames, differing: outcome.differing,
           timing: outcome.timing)
    return outcome.same ? ExitStatus.success : ExitStatus.differ
}

private func report(_ lines: [String], json: Bool, verdict: String, frames: (Int, Int), differing: [(frame: Int, start: Int, pixels: Int)],
                    timing: [(frame: Int, expected: Int, actual: Int)]) {
    guard json else {
        print(lines.joined(separator: "\n"))
        return
    }
    let n = { (v: Int) in JSONValue.number(Double(v)) }
    print(JSONValue.members([
        ("verdict", .string(verdict)), ("expectedFrames", n(frames.0)), ("actualFrames", n(frames.1)),
        ("differingFrames", .array(differing.map { .members([("frame", n($0.frame)), ("start", n($0.start)), ("pixels", n($0.pixels))]) })),
        ("timing", .array(timing.map { .members([("frame", n($0.frame)), ("expected", n($0.expected)), ("actual", n($0.actual))]) })),
    ]).serialized())
}
