import Codecs
import Render
import Flags
import Compare
import Goldens
import Typeset
import Support

extension SizeMismatch: FlagValue {}

/// The comparator's options (shared by `compare`, `render --expect` and `batch --expect-dir`).
struct DiffFlags: FlagGroup {
    @FlagList(GoldenTolerance.definitions.flagSpecs(["threshold", "metric", "min-ssim", "count-aa", "max-diff-pixels", "max-diff-ratio", "ignore", "dpi"]))
    var given: GivenFlags

    /// The options and limits, checked by the one definition every front end shares.
    func tolerance() throws -> GoldenTolerance {
        var tolerance = GoldenTolerance()
        try GoldenTolerance.definitions.apply(given, to: &tolerance)
        return tolerance
    }

}

/// How two images are compared and reported (`compare` and `render --expect`).
struct CompareOptions: FlagGroup {
    @Group var diffFlags: DiffFlags
    @Option("diff", help: Help("Write expected | difference | actual to a PNG.", valueName: "path")) var diff: String?
    @Flag("json", help: "Print a JSON report instead of the one-line summary.") var json = false
    @Option("size-mismatch", help: Help("""
        Images of different sizes: fail (exit 2, the whole larger image counted as different) or \
        pad (compare on the larger canvas, the extra area counted as different).
        """, valueName: "fail|pad"))
    var sizeMismatch: SizeMismatch = .fail

    func tolerance() throws -> GoldenTolerance { try diffFlags.tolerance() }
}

/// Compares two encoded PNGs through the one `Comparison`, reports (one line or JSON on
/// stdout), writes the diff image when asked, and returns the exit status: 0 match, 1 differ,
/// 2 sizes differ.
func runComparison(expected: [UInt8], actual: [UInt8], names: (String, String), options: CompareOptions,
                   tolerance given: GoldenTolerance? = nil, maxPixels: Int) throws -> Int32 {
    let tolerance = try given ?? options.tolerance()
    if let diff = options.diff {
        try OutputFile.checkWritable(diff)
        // Every panel of the diff image is as large as the larger of the two in each direction.
        if let e = PNGCodec.dimensions(expected), let a = PNGCodec.dimensions(actual),
           !Checked.pixels(max(e.width, a.width), max(e.height, a.height), within: maxPixels) {
            throw CLIFailure(message: "--diff: the difference image would be 3 x \(max(e.width, a.width))x\(max(e.height, a.height)) pixels, over the limit of \(maxPixels) per panel (--max-pixels)")
        }
    }
    let outcome: Comparison.Outcome
    do {
        outcome = try Comparison.compare(expected: expected, actual: actual, tolerance: tolerance, sizeMismatch: options.sizeMismatch,
                                         maxPixels: maxPixels, panel: options.diff == nil ? .none : .always, oneShot: true)
    } catch {
        switch error.image {
        case .expected?: throw CLIFailure(message: "\(names.0): \(error)")
        case .actual?: throw CLIFailure(message: "\(names.1): \(error)")
        case nil: throw CLIFailure(message: "--size-mismatch pad: \(error) (--max-pixels)")
        }
    }
    if let diff = options.diff, let a = outcome.expected, let b = outcome.actual {
        let blank = RGBAImage(width: max(a.width, b.width), height: max(a.height, b.height), fill: (255, 255, 255, 255))
        try CLIOutput.write(try PNGCodec.encode(ImageDiff.threePanel(expected: a, difference: outcome.panel ?? blank, actual: b)), to: diff)
    }
    let status: Int32
    switch outcome.verdict {
    case .match: status = ExitStatus.success
    case .differ: status = ExitStatus.differ
    case .sizeMismatch: status = ExitStatus.sizesDiffer
    }
    report(outcome, options: options, tolerance: tolerance, status: status)
    return status
}

private func report(_ outcome: Comparison.Outcome, options: CompareOptions, tolerance: GoldenTolerance, status: Int32) {
    let percent = { (ratio: Double) in significant(ratio * 100) }
    let (result, expectedSize, actualSize) = (outcome.result, outcome.expectedSize, outcome.actualSize)
    if options.json {
        print(CompareReport.json(outcome, tolerance: tolerance).serialized())
        return
    }
    var line: String
    if status == ExitStatus.sizesDiffer {
        line = Comparison.sizesDiffer(expected: expectedSize, actual: actualSize)
    } else if result.identical {
        line = "identical"
    } else if expectedSize != actualSize {
        line = Comparison.sizesDiffer(expected: expectedSize, actual: actualSize) + "; "
            + "\(result.differentPixels) pixels differ (\(percent(result.ratio))%) on the padded canvas"
    } else {
        line = "\(result.differentPixels) pixels differ (\(percent(result.ratio))%)"
        if result.antialiasedPixels > 0 { line += ", \(result.antialiasedPixels) anti-aliased pixels not counted" }
        if let kind = outcome.kind, kind != .size { line += "; \(kind)" }
    }
    if let ssim = result.ssim { line += "; SSIM \(significant(ssim, digits: 6))" }
    print(line)
}
