import Flags
import Compare
import Goldens
import Typeset
import Support

enum SizeMismatch: String, CaseIterable, FlagValue {
    case fail, pad
}

/// The comparator's options (shared by `compare`, `render --expect` and `batch --expect-dir`).
struct DiffFlags: FlagGroup {
    @FlagList(GoldenTolerance.definitions.flagSpecs(["threshold", "count-aa", "max-diff-pixels", "max-diff-ratio"]))
    var given: GivenFlags
    @Option("ignore", help: Help("Skip a region (repeatable).", valueName: "x,y,w,h")) var ignore: [String] = []

    /// The options and limits, checked by the one definition every front end shares.
    func tolerance() throws -> GoldenTolerance {
        var tolerance = GoldenTolerance()
        try GoldenTolerance.definitions.apply(given, to: &tolerance)
        tolerance.options.ignore = try ignore.map(parseRegion)
        return tolerance
    }

    private func parseRegion(_ text: String) throws -> PixelRect {
        let parts = text.split(separator: ",").map { Int($0.trimmed) }
        guard parts.count == 4, parts.allSatisfy({ $0 != nil && (0...1_000_000_000).contains($0!) }),
              parts[2]! > 0, parts[3]! > 0 else {
            throw CLIFailure(message: "--ignore: '\(text)' is not x,y,w,h with whole numbers from 0 and a positive size")
        }
        return PixelRect(x: parts[0]!, y: parts[1]!, width: parts[2]!, height: parts[3]!)
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

/// Compares two encoded PNGs, reports (one line or JSON on stdout), writes the diff image when
/// asked, and returns the exit status: 0 match, 1 differ, 2 sizes differ. Both files are decoded
/// (a corrupt golden is bad input even when the other file is a byte-identical copy), each
/// checked against `maxPixels` before its pixels are allocated.
func runComparison(expected: [UInt8], actual: [UInt8], names: (String, String), options: CompareOptions,
                   maxPixels: Int) throws -> Int32 {
    let tolerance = try options.tolerance()
    let diffOptions = tolerance.options
    if let diff = options.diff { try OutputFile.checkWritable(diff) }
    let a = try decode(expected, name: names.0, maxPixels: maxPixels)
    if expected == actual, options.diff == nil {
        let result = DiffResult(width: a.width, height: a.height, differentPixels: 0, antialiasedPixels: 0, bounds: nil, identical: true)
        report(result, expectedSize: (a.width, a.height), actualSize: (a.width, a.height), options: options, threshold: diffOptions.threshold, status: ExitStatus.success)
        return ExitStatus.success
    }
    let b = try decode(actual, name: names.1, maxPixels: maxPixels)
    let sameSize = a.width == b.width && a.height == b.height
    // Every panel of the diff image is as large as the larger of the two in each direction.
    let canvas = (width: max(a.width, b.width), height: max(a.height, b.height))
    if options.diff != nil, canvas.width * canvas.height > maxPixels {
        throw CLIFailure(message: "--diff: the difference image would be 3 x \(canvas.width)x\(canvas.height) pixels, over the limit of \(maxPixels) per panel (--max-pixels)")
    }
    if !sameSize && options.sizeMismatch == .fail {
        if let diff = options.diff {
            let blank = RGBAImage(width: canvas.width, height: canvas.height, fill: (255, 255, 255, 255))
            try OutputFile.write(try PNGCodec.encode(ImageDiff.threePanel(expected: a, difference: blank, actual: b)), to: diff)
        }
        let result = DiffResult.sizesDiffer(expected: (a.width, a.height), actual: (b.width, b.height))
        report(result, expectedSize: (a.width, a.height), actualSize: (b.width, b.height), options: options, threshold: diffOptions.threshold,
               status: ExitStatus.sizesDiffer, total: result.differentPixels)
        return ExitStatus.sizesDiffer
    }
    var panel = RGBAImage(width: 0, height: 0, pixels: [])
    let result: DiffResult
    do {
        result = options.diff == nil
            ? try ImageDiff.compare(a, b, options: diffOptions, maxPixels: maxPixels)
            : try ImageDiff.compare(a, b, options: diffOptions, maxPixels: maxPixels, diffPanel: &panel)
    } catch {
        throw CLIFailure(message: "--size-mismatch pad: \(error) (--max-pixels)")
    }
    if let diff = options.diff {
        try OutputFile.write(try PNGCodec.encode(ImageDiff.threePanel(expected: a, difference: panel, actual: b)), to: diff)
    }
    let status = tolerance.limits.passes(result) ? ExitStatus.success : ExitStatus.differ
    report(result, expectedSize: (a.width, a.height), actualSize: (b.width, b.height), options: options, threshold: diffOptions.threshold, status: status)
    return status
}

private func decode(_ bytes: [UInt8], name: String, maxPixels: Int) throws -> RGBAImage {
    do {
        return try PNGCodec.decode(bytes, maxPixels: maxPixels)
    } catch let error as PNGError {
        throw CLIFailure(message: "\(name): \(error)")
    }
}

private func report(_ result: DiffResult, expectedSize: (Int, Int), actualSize: (Int, Int), options: CompareOptions,
                    threshold: Double, status: Int32, total: Int? = nil) {
    let percent = { (ratio: Double) in significant(ratio * 100) }
    if options.json {
        let verdict: CompareReport.Verdict = status == ExitStatus.success ? .match : status == ExitStatus.differ ? .differ : .sizeMismatch
        print(CompareReport.json(result, expected: expectedSize, actual: actualSize, verdict: verdict, threshold: threshold,
                                 total: total).serialized())
    } else if status == ExitStatus.sizesDiffer {
        print("sizes differ: expected \(expectedSize.0)x\(expectedSize.1), actual \(actualSize.0)x\(actualSize.1)")
    } else if result.identical {
        print("identical")
    } else if expectedSize != actualSize {
        print("sizes differ: expected \(expectedSize.0)x\(expectedSize.1), actual \(actualSize.0)x\(actualSize.1); "
              + "\(result.differentPixels) pixels differ (\(percent(result.ratio))%) on the padded canvas")
    } else {
        var line = "\(result.differentPixels) pixels differ (\(percent(result.ratio))%)"
        if result.antialiasedPixels > 0 { line += ", \(result.antialiasedPixels) anti-aliased pixels not counted" }
        print(line)
    }
}
