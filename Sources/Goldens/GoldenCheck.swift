import Codecs
import Compare
import Support

/// How a card's render is compared with its golden: the comparator's options and limits
/// (per run, overridden per card by a manifest's "compare" object).
package struct GoldenTolerance: Sendable {
    package var options: DiffOptions
    package var limits: DiffLimits
    /// PDFs: the resolution their pages are rasterised at, in pixels per inch.
    package var dpi: Double = 72
    /// Regions named as card nodes (`blocks[2]`, `blocks[0].spans[3]`): a golden suite, which
    /// knows the layouts, turns them into rectangles (`LayoutExplanation.boxes`) before comparing.
    package var ignoreNodes: [String] = []
    package init(options: DiffOptions = DiffOptions(), limits: DiffLimits = DiffLimits()) {
        self.options = options
        self.limits = limits
    }

    /// The comparison options, defined once: the CLI's flags (`--threshold`), a manifest's
    /// "compare" keys and the service's form fields all parse and check them here.
    package static let definitions: [OptionDefinition<GoldenTolerance>] = [
        OptionDefinition("threshold", "0-1", schema: "number", "Largest perceptual colour delta (YIQ) still taken as equal, 0 to 1 (default 0.1).") {
            $0.options.threshold = try $1.number(in: 0...1)
        },
        OptionDefinition("metric", "pixelmatch|ssim", schema: "string",
                         "pixelmatch: pixels over the threshold counted against the limits (pixelmatch 7's YIQ rule, the default); ssim: one structural-similarity score per image, against min-ssim.") {
            let name = try $1.string()
            guard let metric = DiffMetric(rawValue: name) else { throw OptionError("'\(name)' is not pixelmatch or ssim") }
            $0.options.metric = metric
        },
        OptionDefinition("min-ssim", "0-1", schema: "number", "With --metric ssim, the lowest score that passes, 0 to 1 (default 0.99).") {
            $0.options.minSSIM = try $1.number(in: 0...1)
        },
        OptionDefinition("dpi", "n", schema: "number", "PDFs: pages are rasterised at this many pixels per inch, 18 to 600 (default 72).") {
            $0.dpi = try $1.number(in: 18...600)
        },
        OptionDefinition("count-aa", "bool", schema: "boolean", "Also count pixels that look like anti-aliasing.") {
            $0.options.countAntialiasing = try $1.bool()
        },
        OptionDefinition("max-diff-pixels", "n", schema: "integer", "Pass with up to N counted pixels (default 0).") {
            $0.limits.maxPixels = try $1.integer(in: 0...1_000_000_000_000_000)
        },
        OptionDefinition("max-diff-ratio", "0-1", schema: "number", "Pass with up to this fraction of counted pixels, 0 to 1 (default 0).") {
            $0.limits.maxRatio = try $1.number(in: 0...1)
        },
        OptionDefinition("ignore", "x,y,w,h|node", schema: "string|array",
                         "Skip a region, in pixels (repeatable; in JSON a string or a list of them): a clock in a screenshot. In a golden suite of cards, a node of the card instead (blocks[2], blocks[0].spans[3], a stack's blocks[1].blocks[0]): its box in the golden's layout and in this run's.",
                         repeatable: true) {
            let texts: [String]
            if case let .json(.array(items)) = $1 {
                texts = try items.map { try OptionInput.json($0).string() }
            } else {
                texts = [try $1.string()]
            }
            // Every compared pixel is tested against every region: a manifest row or a service
            // form may not make that loop as long as it likes.
            guard $0.options.ignore.count + $0.ignoreNodes.count + texts.count <= GoldenTolerance.maxIgnoreRegions else {
                throw OptionError("at most \(GoldenTolerance.maxIgnoreRegions) regions")
            }
            for text in texts {
                if text.hasPrefix("blocks") {
                    guard LayoutExplanation.node(text) != nil else {
                        throw OptionError("'\(text)' is not a card node (blocks[N], a stack's blocks[N].blocks[K], each with .spans[M] or not)")
                    }
                    $0.ignoreNodes.append(text)
                } else {
                    $0.options.ignore.append(try PixelRect(parsing: text))
                }
            }
        },
    ]

    /// The verdict's rule: the SSIM score against `minSSIM` with that metric, else the counted
    /// pixels against the limits.
    package func passes(_ result: DiffResult) -> Bool {
        options.metric == .ssim ? (result.ssim ?? (result.identical ? 1 : 0)) >= options.minSSIM : limits.passes(result)
    }

    package static var optionNames: [String] { definitions.map(\.name) }

    /// Every field written out, for a golden's stored inputs (a changed threshold renders the
    /// card again). Spelled field by field: `"\(self)"` reflects over the value, which cost a
    /// quarter of an unchanged suite's run; a test sets each option in turn and sees this change.
    package var fingerprint: String {
        let regions = options.ignore.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: ";")
        return [options.metric.rawValue, "\(options.minSSIM)", "\(options.threshold)", options.countAntialiasing ? "aa" : "-",
                regions, ignoreNodes.joined(separator: ";"), limits.maxPixels.map { "\($0)" } ?? "-",
                limits.maxRatio.map { "\($0)" } ?? "-", "\(dpi)"].joined(separator: " ")
    }

    /// The most `ignore` regions a comparison takes (each pixel is tested against each).
    package static let maxIgnoreRegions = 64

    /// Sets the option `name` from `value`; an unknown name or a bad value is an `OptionError`.
    package mutating func set(_ name: String, _ value: OptionInput) throws {
        guard let definition = GoldenTolerance.definitions.named(name) else {
            throw OptionError("is not a comparison option (\(GoldenTolerance.optionNames.joined(separator: ", ")))")
        }
        try definition.apply(value, to: &self)
    }
}

/// One card's verdict against its golden.
package struct GoldenResult: Sendable {
    /// Same or within pass; changed, new (no golden yet) and error (the card could not be
    /// rendered, or its golden read) fail.
    package typealias Status = GoldenStatus

    package var name: String
    /// 1-based row of the manifest or data file.
    package var row: Int
    package var status: Status
    package var message: String
    package var diff: DiffResult?
    /// Changed because the sizes differ (nothing was decoded).
    package var sizesDiffer = false
    /// The card spec as rendered (variables filled), for the report.
    package var spec: String
    package var milliseconds: Double
    /// Failures and missing goldens: the images the report shows (PNG bytes).
    package var expected: [UInt8]?
    package var actual: [UInt8]?
    package var difference: [UInt8]?

    package init(name: String, row: Int, status: Status, message: String, spec: String, milliseconds: Double) {
        self.name = name
        self.row = row
        self.status = status
        self.message = message
        self.spec = spec
        self.milliseconds = milliseconds
    }
}

package enum GoldenCheck {
    /// A card without a golden: what to do about it, in the words of `batch`'s flags.
    package static let noGolden = "no golden recorded (look at the render, then record it with --update missing)"

    /// Compares a rendered PNG with its golden's bytes (nil: there is none) through the one
    /// `Comparison`: sizes that differ fail from the headers alone (an 83-byte 32767x1 golden
    /// once made a 779 MB padded canvas). `budget` bounds what parallel checks decode together;
    /// `panel` asks for the difference image of a failure (a report shows it).
    package static func check(_ actual: [UInt8], golden: [UInt8]?, tolerance: GoldenTolerance, maxPixels: Int,
                              budget: WaitingBudget? = nil, panel: Bool = true, into result: inout GoldenResult) throws {
        guard let golden else {
            result.status = .new
            result.message = GoldenCheck.noGolden
            result.actual = actual
            return
        }
        if AnimationFrames.isAnimation(actual) || AnimationFrames.isAnimation(golden) {
            return try checkAnimation(actual, golden: golden, tolerance: tolerance, maxPixels: maxPixels, budget: budget, panel: panel,
                                      into: &result)
        }
        guard let outcome = try judged(actual, budget: budget, into: &result, { () throws(ComparisonError) in
            try Comparison.compare(expected: golden, actual: actual, tolerance: tolerance, maxPixels: maxPixels,
                                   panel: panel ? .whenCompared : .none)
        }) else { return }
        result.diff = outcome.result
        result.message = message(outcome)
        switch outcome.verdict {
        case .match:
            result.status = outcome.result.differentPixels == 0 ? .same : .within
        case .sizeMismatch:
            (result.status, result.sizesDiffer) = (.changed, true)
            result.expected = golden
            result.actual = actual
        case .differ:
            result.status = .changed
            result.expected = golden
            result.actual = actual
            if let panel = outcome.panel { result.difference = try PNGCodec.encode(panel) }
        }
    }

    /// A comparison's verdict in one line, the words of every golden check (a suite's row,
    /// HLRenderKit's `compare` and `checkGolden`): "identical", "same pixels", "3 pixels
    /// differ, within the limit", "81000 pixels differ (0.98%); colour only", or the sizes.
    package static func message(_ outcome: Comparison.Outcome) -> String {
        switch outcome.verdict {
        case .match:
            return outcome.sameBytes ? "identical"
                : outcome.result.differentPixels == 0 ? "same pixels" : "\(outcome.result.differentPixels) pixels differ, within the limit"
        case .sizeMismatch:
            return Comparison.sizesDiffer(expected: outcome.expectedSize, actual: outcome.actualSize)
        case .differ:
            let percent = (outcome.result.ratio * 10_000).rounded() / 100
            return "\(outcome.result.differentPixels) pixels differ (\(percent)%)" + (outcome.kind.map { "; \($0)" } ?? "")
        }
    }

    /// An animated card (APNG) against its golden, frame by frame: the frames' count, timing
    /// and each frame's pixels under the tolerance; the first differing frame is the picture a
    /// report shows.
    private static func checkAnimation(_ actual: [UInt8], golden: [UInt8], tolerance: GoldenTolerance, maxPixels: Int,
                                       budget: WaitingBudget?, panel: Bool, into result: inout GoldenResult) throws {
        if actual == golden {
            (result.status, result.message) = (.same, "identical")
            return
        }
        // A still golden of a card that now moves (or the other way): changed, so `--update`
        // records the new kind.
        if AnimationFrames.isAnimation(actual) != AnimationFrames.isAnimation(golden) {
            result.status = .changed
            result.message = AnimationFrames.isAnimation(actual) ? "the card is an animation now, its golden a still image"
                : "the card is a still image now, its golden an animation"
            (result.expected, result.actual) = (golden, actual)
            return
        }
        guard let outcome = try judged(actual, budget: budget, into: &result, { () throws(ComparisonError) in
            try Comparison.compareAnimations(expected: golden, actual: actual, tolerance: tolerance, maxPixels: maxPixels, panel: panel)
        }) else { return }
        if outcome.same {
            (result.status, result.message) = (.same, outcome.lines.joined(separator: "; "))
            return
        }
        result.status = .changed
        result.message = outcome.lines.joined(separator: "; ")
        result.diff = outcome.firstDiffering?.result
        result.expected = golden
        result.actual = actual
        if let panel = outcome.firstDiffering?.panel { result.difference = try PNGCodec.encode(panel) }
    }

    /// A comparison run within the budget (two decoded images, or a frame of each, and a
    /// difference panel: five images of `actual`'s size): a golden that cannot be read is the
    /// card's error (nil), anything else is thrown.
    private static func judged<T>(_ actual: [UInt8], budget: WaitingBudget?, into result: inout GoldenResult,
                                  _ compare: () throws(ComparisonError) -> T) throws -> T? {
        let bytes = (ImageDecoder.pixelCount(actual) ?? 0) * 4 * 5
        do {
            return try budget.map { budget in try budget.with(bytes) { try compare() } } ?? compare()
        } catch let error as ComparisonError {
            guard error.image == .expected else { throw error }
            result.status = .error
            result.message = "golden: \(error)"
            return nil
        }
    }
}
