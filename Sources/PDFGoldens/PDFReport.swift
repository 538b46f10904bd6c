import Compare
import Goldens
import Support

/// What a PDF comparison prints and writes: one line per differing page, JSON, and the rows
/// of the suites' HTML and JUnit reports (one per page, the outline as one more).
package enum PDFReport {
    /// One line per page that is not the same ("page 37: changed: ..."), then "pages: 100
    /// expected, 101 actual; 98 same, 2 changed, 1 new", in the words of every golden report.
    package static func lines(_ report: PDFComparison.Report) -> [String] {
        var lines: [String] = []
        for page in report.pages where page.status != .same {
            lines.append("page \(page.number): \(page.status.rawValue): \(page.message)")
            for change in page.words.prefix(10) { lines.append("  text: \(change)") }
            for link in page.links.prefix(10) { lines.append("  link: \(link)") }
        }
        lines += report.bookmarks.map { "outline: \($0)" }
        lines.append("pages: \(report.expectedPages) expected, \(report.actualPages) actual; \(GoldenStatus.summary(report.pages.map(\.status)))"
            + (report.bookmarks.isEmpty ? "" : "; outline changed"))
        return lines
    }

    package static func json(_ report: PDFComparison.Report, tolerance: GoldenTolerance) -> JSONValue {
        let pages: [JSONValue] = report.pages.filter { $0.status != .same }.map { page in
            var members: [(String, JSONValue)] = [("page", .number(Double(page.number))), ("status", .string(page.status.rawValue))]
            if let outcome = page.outcome {
                members += CompareReport.kindMembers(outcome.kind)
                members.append(("different_pixels", .number(Double(outcome.result.differentPixels))))
                if let ssim = outcome.result.ssim { members.append(("ssim", .number(ssim))) }
            }
            members.append(("text", .array(page.words.map { change in
                .members([("before", .string(change.before.joined(separator: " "))), ("removed", .string(change.removed.joined(separator: " "))),
                          ("added", .string(change.added.joined(separator: " ")))])
            })))
            members.append(("links", .array(page.links.map { .string($0) })))
            if !page.reflowed.isEmpty { members.append(("reflowed", .string(page.reflowed))) }
            return .members(members)
        }
        return .members([("result", .string(report.differs ? "differ" : "match")),
                         ("expected_pages", .number(Double(report.expectedPages))), ("actual_pages", .number(Double(report.actualPages))),
                         ("dpi", .number(tolerance.dpi))] + CompareReport.metricMembers(tolerance)
                        + [("pages", .array(pages)), ("outline", .array(report.bookmarks.map { .string($0) }))])
    }

    /// One row per page (named "page N") and, when it differs, one for the outline; a
    /// differing page carries its pictures and, as its detail, the text and link changes.
    package static func results(_ report: PDFComparison.Report) -> [GoldenResult] {
        var results: [GoldenResult] = report.pages.map { page in
            let status = page.status
            let detail = ((page.reflowed.isEmpty ? [] : ["reflowed: \(page.reflowed)"]) + page.words.map { "text: \($0)" }
                          + page.links.map { "link: \($0)" }).joined(separator: "\n")
            var result = GoldenResult(name: "page \(page.number)", row: page.number, status: status,
                                      message: page.message.isEmpty ? page.status.rawValue : page.message, spec: detail, milliseconds: 0)
            result.diff = page.outcome?.result
            (result.expected, result.actual, result.difference) = (page.expectedPNG, page.actualPNG, page.differencePNG)
            return result
        }
        if !report.bookmarks.isEmpty {
            results.append(GoldenResult(name: "outline", row: report.pages.count + 1, status: .changed, message: "the outline differs",
                                        spec: report.bookmarks.joined(separator: "\n"), milliseconds: 0))
        }
        return results
    }
}
