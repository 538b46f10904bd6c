import Compare
import Support

/// The JSON of `hlrender compare --json` (and the service's `POST /v1/compare`).
package enum CompareReport {
    package typealias Verdict = Comparison.Verdict

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

    /// The JSON of an outcome of the one comparison: the numbers above, the metric that
    /// decided (name and version), the SSIM score with that metric, and why the images differ.
    package static func json(_ outcome: Comparison.Outcome, tolerance: GoldenTolerance) -> JSONValue {
        var members = json(outcome.result, expected: outcome.expectedSize, actual: outcome.actualSize, verdict: outcome.verdict,
                           threshold: tolerance.options.threshold, total: outcome.countedTotal).objectMembers
        members += metricMembers(tolerance)
        if let ssim = outcome.result.ssim { members.append(("ssim", .number(ssim))) }
        members += kindMembers(outcome.kind)
        return .members(members)
    }

    /// "metric" and "metric_version".
    package static func metricMembers(_ tolerance: GoldenTolerance) -> [(String, JSONValue)] {
        [("metric", .string(tolerance.options.metric.rawValue)), ("metric_version", .string(tolerance.options.metric.version))]
    }

    /// "why" (the kind's name, null when nothing differs) and, for a shift, "shift": {dx, dy}.
    package static func kindMembers(_ kind: DiffKind?) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("why", kind.map { .string($0.name) } ?? .null)]
        if case let .shifted(dx, dy)? = kind {
            members.append(("shift", .members([("dx", .number(Double(dx))), ("dy", .number(Double(dy)))])))
        }
        return members
    }
}
