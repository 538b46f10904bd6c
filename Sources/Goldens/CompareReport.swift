import Compare
import Support

/// The JSON of `hlrender compare --json` (and the service's `POST /v1/compare`).
package enum CompareReport {
    package enum Verdict: String, Sendable {
        case match, differ
        case sizeMismatch = "size-mismatch"
    }

    package static func json(_ result: DiffResult, expected: (width: Int, height: Int), actual: (width: Int, height: Int),
                            verdict: Verdict, threshold: Double, total: Int? = nil) -> JSONValue {
        let bounds: JSONValue = result.bounds.map {
            .members([("x", .number(Double($0.x))), ("y", .number(Double($0.y))),
                      ("width", .number(Double($0.width))), ("height", .number(Double($0.height)))])
        } ?? .null
        let size = { (s: (width: Int, height: Int)) in JSONValue.members([("width", .number(Double(s.width))), ("height", .number(Double(s.height)))]) }
        return .members([
            ("result", .string(verdict.rawValue)), ("identical", .bool(result.identical)),
            ("expected", size(expected)), ("actual", size(actual)),
            ("different_pixels", .number(Double(result.differentPixels))),
            ("antialiased_pixels", .number(Double(result.antialiasedPixels))),
            ("total_pixels", .number(Double(total ?? result.width * result.height))),
            ("ratio", .number(total == nil ? result.ratio : 1)), ("bounds", bounds), ("threshold", .number(threshold)),
        ])
    }

    /// Compares two decoded images as `compare` does by default (sizes must match, so the
    /// canvas is no larger than either image, already within the decoder's pixel limit).
    package static func compare(_ expected: RGBAImage, _ actual: RGBAImage, options: DiffOptions, limits: DiffLimits) -> JSONValue {
        let e = (expected.width, expected.height), a = (actual.width, actual.height)
        guard e == a else {
            let result = DiffResult.sizesDiffer(expected: e, actual: a)
            return json(result, expected: e, actual: a, verdict: .sizeMismatch, threshold: options.threshold, total: result.differentPixels)
        }
        // Equal sizes: the canvas is one of the images, so no budget can be exceeded.
        let result = try! ImageDiff.compare(expected, actual, options: options, maxPixels: .max)
        return json(result, expected: e, actual: a, verdict: limits.passes(result) ? .match : .differ, threshold: options.threshold)
    }
}
