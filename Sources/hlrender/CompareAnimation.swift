import Codecs
import Compare
import Goldens
import Render
import Support

/// `compare` of two animations (animated WebP or APNG): frame by frame, each frame's pixels
/// under the same tolerance as an image's, and the frames' count and durations; the report
/// names the first differing frames. Frames are read one at a time from both files.
func runAnimationComparison(expected: [UInt8], actual: [UInt8], names: (String, String), options: CompareOptions,
                            tolerance: GoldenTolerance, maxPixels: Int) throws -> Int32 {
    func open(_ bytes: [UInt8], _ name: String) throws -> AnimationFrames {
        do { return try AnimationFrames(bytes, maxPixels: maxPixels) } catch { throw CLIFailure(message: "\(name): \(error)") }
    }
    func next(_ frames: AnimationFrames, _ name: String) throws -> (image: RGBAImage, milliseconds: Double)? {
        do { return try frames.next() } catch { throw CLIFailure(message: "\(name): \(error)") }
    }
    let a = try open(expected, names.0), b = try open(actual, names.1)
    if (a.width, a.height) != (b.width, b.height) {
        report([Comparison.sizesDiffer(expected: (a.width, a.height), actual: (b.width, b.height))], json: options.json, verdict: "size-mismatch",
               frames: (a.count, b.count), differing: [], timing: [])
        return ExitStatus.sizesDiffer
    }
    var differing: [(frame: Int, start: Int, pixels: Int)] = [], timing: [(frame: Int, expected: Int, actual: Int)] = []
    // Times in ms: WebP stores whole milliseconds a frame, APNG fractions of a second, so a
    // frame's start and length agree when within a millisecond.
    var counts = (0, 0), clock = (0.0, 0.0), firstPanel: Comparison.Outcome?
    while true {
        let fa = try next(a, names.0), fb = try next(b, names.1)
        if fa != nil { counts.0 += 1 }
        if fb != nil { counts.1 += 1 }
        guard let fa, let fb else {
            if fa == nil && fb == nil { break }
            continue  // one has more frames: counted, not compared
        }
        if abs(clock.0 - clock.1) > 1 || abs(fa.milliseconds - fb.milliseconds) > 1 {
            timing.append((counts.0, Int(fa.milliseconds.rounded()), Int(fb.milliseconds.rounded())))
        }
        let outcome: Comparison.Outcome
        do {
            outcome = try Comparison.compare(expected: fa.image, actual: fb.image, tolerance: tolerance, maxPixels: maxPixels,
                                             panel: options.diff != nil && firstPanel == nil ? .whenCompared : .none)
        } catch {
            throw CLIFailure(message: "frame \(counts.0): \(error)")
        }
        if outcome.verdict != .match {
            differing.append((counts.0, Int(clock.0.rounded()), outcome.result.differentPixels))
            if firstPanel == nil { firstPanel = outcome }
        }
        clock.0 += fa.milliseconds
        clock.1 += fb.milliseconds
    }
    if let path = options.diff, let first = firstPanel, let e = first.expected, let c = first.actual {
        let blank = RGBAImage(width: e.width, height: e.height, fill: (255, 255, 255, 255))
        try CLIOutput.write(try PNGCodec.encode(ImageDiff.threePanel(expected: e, difference: first.panel ?? blank, actual: c)), to: path)
    }
    let same = differing.isEmpty && timing.isEmpty && counts.0 == counts.1
    var lines: [String] = []
    if same {
        lines.append("animations match: \(counts.0) frames, \(Int(clock.0.rounded())) ms")
    } else {
        if counts.0 != counts.1 { lines.append("frame counts differ: expected \(counts.0), actual \(counts.1)") }
        if !differing.isEmpty {
            let shown = differing.prefix(5).map { "\($0.frame) (at \($0.start) ms, \($0.pixels) pixels)" }.joined(separator: ", ")
            lines.append("\(differing.count) of \(min(counts.0, counts.1)) frames differ: \(shown)\(differing.count > 5 ? ", ..." : "")")
        }
        if !timing.isEmpty {
            let shown = timing.prefix(5).map { "frame \($0.frame) shows \($0.expected) ms, actual \($0.actual) ms" }.joined(separator: "; ")
            lines.append("timing differs: \(shown)\(timing.count > 5 ? "; ..." : "")")
        }
    }
    report(lines, json: options.json, verdict: same ? "match" : "differ", frames: counts, differing: differing, timing: timing)
    return same ? ExitStatus.success : ExitStatus.differ
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
