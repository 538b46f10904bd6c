import Compare
import Support

/// How a card's render is compared with its golden: the comparator's options and limits
/// (per run, overridden per card by a manifest's "compare" object).
package struct GoldenTolerance: Sendable {
    package var options: DiffOptions
    package var limits: DiffLimits
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
        OptionDefinition("count-aa", "bool", schema: "boolean", "Also count pixels that look like anti-aliasing.") {
            $0.options.countAntialiasing = try $1.bool()
        },
        OptionDefinition("max-diff-pixels", "n", schema: "integer", "Pass with up to N counted pixels (default 0).") {
            $0.limits.maxPixels = try $1.integer(in: 0...1_000_000_000_000_000)
        },
        OptionDefinition("max-diff-ratio", "0-1", schema: "number", "Pass with up to this fraction of counted pixels, 0 to 1 (default 0).") {
            $0.limits.maxRatio = try $1.number(in: 0...1)
        },
    ]

    package static var optionNames: [String] { definitions.map(\.name) }

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
    package enum Status: String, Sendable {
        case passed, failed, missing
        /// The card could not be rendered (or its golden read): a JUnit error.
        case error
    }

    package var name: String
    /// 1-based row of the manifest or data file.
    package var row: Int
    package var status: Status
    package var message: String
    package var diff: DiffResult?
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
    /// Compares a rendered PNG with its golden's bytes (nil: there is none). Images of
    /// different sizes fail as `compare` says by default: read from their headers, every pixel
    /// of the larger counted, nothing decoded or padded (an 83-byte 32767x1 golden made a 779
    /// MB padded canvas). `budget` bounds what parallel checks decode together.
    package static func check(_ actual: [UInt8], golden: [UInt8]?, tolerance: GoldenTolerance, maxPixels: Int,
                             budget: WaitingBudget? = nil, into result: inout GoldenResult) throws {
        guard let golden else {
            result.status = .missing
            result.message = "no golden recorded"
            result.actual = actual
            return
        }
        if golden == actual {
            result.status = .passed
            result.message = "identical"
            return
        }
        if let e = PNGCodec.dimensions(golden), let a = PNGCodec.dimensions(actual), e != a {
            result.status = .failed
            result.diff = DiffResult.sizesDiffer(expected: e, actual: a)
            result.message = "size \(a.width)x\(a.height), golden \(e.width)x\(e.height)"
            result.expected = golden
            result.actual = actual
            return
        }
        // Two decoded images and the three-panel difference.
        let bytes = (PNGCodec.pixelCount(actual) ?? 0) * 4 * 5
        if let budget {
            try budget.with(bytes) { try compare(actual, golden: golden, tolerance: tolerance, maxPixels: maxPixels, into: &result) }
        } else {
            try compare(actual, golden: golden, tolerance: tolerance, maxPixels: maxPixels, into: &result)
        }
    }

    /// Same-size images (by their headers) decoded and compared.
    private static func compare(_ actual: [UInt8], golden: [UInt8], tolerance: GoldenTolerance, maxPixels: Int,
                                into result: inout GoldenResult) throws {
        let expectedImage: RGBAImage
        do {
            expectedImage = try PNGCodec.decode(golden, maxPixels: maxPixels)
        } catch {
            result.status = .error
            result.message = "golden: \(error)"
            return
        }
        let actualImage = try PNGCodec.decode(actual, maxPixels: maxPixels)
        var panel = RGBAImage(width: 0, height: 0, pixels: [])
        let sameSize = expectedImage.width == actualImage.width && expectedImage.height == actualImage.height
        let sizes = sameSize ? "" : "size \(actualImage.width)x\(actualImage.height), golden \(expectedImage.width)x\(expectedImage.height); "
        let diff: DiffResult
        do {
            diff = try ImageDiff.compare(expectedImage, actualImage, options: tolerance.options, maxPixels: maxPixels, diffPanel: &panel)
        } catch {
            // Shapes so different that comparing them would need a canvas past the pixel limit.
            result.status = .failed
            result.message = sizes + "\(error)"
            result.expected = golden
            result.actual = actual
            return
        }
        result.diff = diff
        if sameSize && tolerance.limits.passes(diff) {
            result.status = .passed
            result.message = diff.differentPixels == 0 ? "same pixels" : "\(diff.differentPixels) pixels differ, within the limit"
            return
        }
        result.status = .failed
        let percent = (diff.ratio * 10_000).rounded() / 100
        result.message = sizes + "\(diff.differentPixels) pixels differ (\(percent)%)"
        result.expected = golden
        result.actual = actual
        result.difference = try PNGCodec.encode(panel)
    }
}
