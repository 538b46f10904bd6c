import ArgumentParser
import Card
import Compare
import Goldens

/// `batch --expect-dir`: golden tests for a suite of cards.
struct GoldenFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Compare each card (PNG) with the file of the same name here; a missing one fails.", valueName: "dir"))
    var expectDir: String?
    @Flag(help: "Write the cards that differ from their goldens, or have none, as the new goldens (and hlrender-env.json).")
    var update = false
    @Option(help: ArgumentHelp("Write an HTML report (index.html and its images) to this folder.", valueName: "dir"))
    var htmlReport: String?
    @Option(help: ArgumentHelp("Write a JUnit XML report: one testcase per card.", valueName: "file.xml"))
    var junit: String?
    @Flag(help: "With --expect-dir, also use the system's fonts (off by default: goldens must not depend on a machine's fonts).")
    var systemFonts = false
    @OptionGroup(title: "Comparison (with --expect-dir; a manifest line's \"compare\" object overrides per card)") var diff: DiffFlags

    func validate(outDir: String?) throws {
        guard expectDir != nil else {
            let stray = [("--update", update), ("--html-report", htmlReport != nil), ("--junit", junit != nil),
                         ("--system-fonts", systemFonts)].filter(\.1).map(\.0)
            if !stray.isEmpty { throw CLIFailure(message: "\(stray.joined(separator: ", ")) need --expect-dir GOLDEN_DIR") }
            return
        }
        _ = try diff.diffOptions()
        for path in [junit].compactMap({ $0 }) { try OutputFile.checkWritable(path) }
    }

    /// The run's tolerance, with a card's "compare" object on top.
    func tolerance(_ compare: JSONValue?) throws -> GoldenTolerance {
        var tolerance = GoldenTolerance(options: try diff.diffOptions(), limits: try diff.limits())
        guard case let .object(members)? = compare else { return tolerance }
        for (key, value) in members {
            guard case let .number(n) = value else {
                if case let .bool(b) = value, key == "count-aa" { tolerance.options.countAntialiasing = b; continue }
                throw CardError("compare.\(key)", "must be a number")
            }
            switch key {
            case "threshold" where (0...1).contains(n): tolerance.options.threshold = n
            case "max-diff-pixels" where n >= 0 && n == n.rounded(): tolerance.limits.maxPixels = Int(n)
            case "max-diff-ratio" where (0...1).contains(n): tolerance.limits.maxRatio = n
            case "threshold", "max-diff-pixels", "max-diff-ratio": throw CardError("compare.\(key)", "\(n) is out of range")
            default: throw CardError("compare.\(key)", "unknown key (threshold, count-aa, max-diff-pixels, max-diff-ratio)")
            }
        }
        return tolerance
    }
}
