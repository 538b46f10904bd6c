import Compare

/// How a card's render is compared with its golden: the comparator's options and limits
/// (per run, overridden per card by a manifest's "compare" object).
public struct GoldenTolerance: Sendable {
    public var options: DiffOptions
    public var limits: DiffLimits
    public init(options: DiffOptions = DiffOptions(), limits: DiffLimits = DiffLimits()) {
        self.options = options
        self.limits = limits
    }

    /// A comparison option that is not acceptable: `name` as the front ends spell it.
    public struct InvalidOption: Error, CustomStringConvertible, Sendable {
        public let name: String
        public let description: String
    }

    /// The options by name: the CLI's flags (`--threshold`), a manifest's "compare" keys and
    /// the service's form fields all set them here, checked here.
    public static let optionNames = ["threshold", "count-aa", "max-diff-pixels", "max-diff-ratio"]

    /// Sets one option; `count-aa` takes 0 or 1.
    public mutating func set(_ name: String, _ value: Double) throws(InvalidOption) {
        let fail = { (message: String) in InvalidOption(name: name, description: message) }
        let shown = value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        switch name {
        case "threshold", "max-diff-ratio":
            guard value.isFinite, (0...1).contains(value) else { throw fail("must be between 0 and 1, got \(shown)") }
            if name == "threshold" { options.threshold = value } else { limits.maxRatio = value }
        case "max-diff-pixels":
            guard value.isFinite, value >= 0, value == value.rounded(), value <= 1e15 else {
                throw fail(value < 0 ? "must be 0 or more, got \(value)" : "must be a whole number of pixels, got \(shown)")
            }
            limits.maxPixels = Int(value)
        case "count-aa":
            guard value == 0 || value == 1 else { throw fail("must be true or false (1 or 0), got \(shown)") }
            options.countAntialiasing = value == 1
        default:
            throw fail("is not a comparison option (\(GoldenTolerance.optionNames.joined(separator: ", ")))")
        }
    }
}

/// One card's verdict against its golden.
public struct GoldenResult: Sendable {
    public enum Status: String, Sendable {
        case passed, failed, missing
        /// The card could not be rendered (or its golden read): a JUnit error.
        case error
    }

    public var name: String
    /// 1-based row of the manifest or data file.
    public var row: Int
    public var status: Status
    public var message: String
    public var diff: DiffResult?
    /// The card spec as rendered (variables filled), for the report.
    public var spec: String
    public var milliseconds: Double
    /// Failures and missing goldens: the images the report shows (PNG bytes).
    public var expected: [UInt8]?
    public var actual: [UInt8]?
    public var difference: [UInt8]?

    public init(name: String, row: Int, status: Status, message: String, spec: String, milliseconds: Double) {
        self.name = name
        self.row = row
        self.status = status
        self.message = message
        self.spec = spec
        self.milliseconds = milliseconds
    }
}

public enum GoldenCheck {
    /// Compares a rendered PNG with its golden's bytes (nil: there is none). Images of
    /// different sizes fail, compared on the larger canvas (the extra area counts).
    public static func check(_ actual: [UInt8], golden: [UInt8]?, tolerance: GoldenTolerance, maxPixels: Int,
                             into result: inout GoldenResult) throws {
        guard let golden else {
            result.status = .missing
            result.message = "no golden; run with --update"
            result.actual = actual
            return
        }
        if golden == actual {
            result.status = .passed
            result.message = "identical"
            return
        }
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
        let diff = ImageDiff.compare(expectedImage, actualImage, options: tolerance.options, diffPanel: &panel)
        result.diff = diff
        let sameSize = expectedImage.width == actualImage.width && expectedImage.height == actualImage.height
        if sameSize && tolerance.limits.passes(diff) {
            result.status = .passed
            result.message = diff.differentPixels == 0 ? "same pixels" : "\(diff.differentPixels) pixels differ, within the limit"
            return
        }
        result.status = .failed
        let percent = (diff.ratio * 10_000).rounded() / 100
        result.message = (sameSize ? "" : "size \(actualImage.width)x\(actualImage.height), golden \(expectedImage.width)x\(expectedImage.height); ")
            + "\(diff.differentPixels) pixels differ (\(percent)%)"
        result.expected = golden
        result.actual = actual
        result.difference = try PNGCodec.encode(panel)
    }
}
