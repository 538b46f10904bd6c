/// The one vocabulary of every golden comparison (folders, golden suites, PDF pages, the
/// HTML, JUnit, JSON and Markdown reports, the command line): each word means one thing
/// everywhere, and says it in `meaning`.
package enum GoldenStatus: String, CaseIterable, Sendable {
    /// Byte-identical, or the same pixels.
    case same
    /// Pixels differ, within the metric's limits.
    case within
    /// Over the limits, or another size.
    case changed
    /// Only on the actual side: no baseline yet.
    case new
    /// Only on the expected side: the run did not produce it.
    case missing
    /// A file that cannot be read, decoded or rendered.
    case error

    /// Whether the run fails because of this one.
    package var fails: Bool { self != .same && self != .within }

    /// The word's meaning, for a report's legend and a JUnit failure's type.
    package var meaning: String {
        switch self {
        case .same: "the same pixels"
        case .within: "pixels differ, within the limits"
        case .changed: "over the limits, or another size"
        case .new: "no baseline yet"
        case .missing: "a baseline the run did not produce"
        case .error: "could not be read, decoded or rendered"
        }
    }

    /// Counts of each status, in this vocabulary's order.
    package static func counts(_ statuses: [GoldenStatus]) -> [(GoldenStatus, Int)] {
        allCases.map { status in (status, statuses.count { $0 == status }) }
    }

    /// The counts as one line's words ("2 same, 1 changed, 1 new"), the zero ones left out.
    package static func summary(_ statuses: [GoldenStatus]) -> String {
        let words = counts(statuses).filter { $0.1 > 0 }.map { "\($0.1) \($0.0.rawValue)" }
        return words.isEmpty ? "none" : words.joined(separator: ", ")
    }
}
