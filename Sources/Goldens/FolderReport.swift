import Compare
import Support

/// What a folder comparison writes: JSON, a Markdown summary for a pull request, and the
/// `GoldenResult`s the HTML and JUnit reports of golden suites are made from.
package enum FolderReport {
    /// Counts per status, in the vocabulary's order.
    package static func counts(_ entries: [FolderComparison.Entry]) -> [(GoldenStatus, Int)] {
        GoldenStatus.counts(entries.map(\.status))
    }

    /// The whole run as JSON: the metric (name and version), the counts, and one object per file.
    package static func json(_ entries: [FolderComparison.Entry], expected: String, actual: String, base: GoldenTolerance) -> JSONValue {
        let files: [JSONValue] = entries.map { entry in
            var members: [(String, JSONValue)] = [("path", .string(entry.path)), ("status", .string(entry.status.rawValue))]
            if let outcome = entry.outcome {
                let result = outcome.result
                members += CompareReport.kindMembers(outcome.kind)
                members += [("different_pixels", .number(Double(result.differentPixels))),
                            ("antialiased_pixels", .number(Double(result.antialiasedPixels))),
                            ("ratio", .number(outcome.countedTotal == nil ? result.ratio : 1))]
                if let ssim = result.ssim { members.append(("ssim", .number(ssim))) }
                members.append(("expected_size", .string("\(outcome.expectedSize.width)x\(outcome.expectedSize.height)")))
                members.append(("actual_size", .string("\(outcome.actualSize.width)x\(outcome.actualSize.height)")))
                if entry.tolerance.options.metric != base.options.metric { members += CompareReport.metricMembers(entry.tolerance) }
            }
            members.append(("message", .string(entry.message)))
            return .members(members)
        }
        return .members([("result", .string(entries.contains { $0.status.fails } ? "differ" : "match")),
                         ("expected", .string(expected)), ("actual", .string(actual))]
                        + CompareReport.metricMembers(base)
                        + [("counts", .members(counts(entries).map { ($0.0.rawValue, .number(Double($0.1))) })),
                           ("files", .array(files))])
    }

    /// The suite-report view of each entry (status, message, images) for `HTMLReport` and
    /// `JUnitReport`, in the same words. `read` gives a file's bytes for the failing ones'
    /// pictures (nil: none shown).
    package static func results(_ entries: [FolderComparison.Entry], read: (String, ComparedImage) -> [UInt8]?) -> [GoldenResult] {
        entries.enumerated().map { index, entry in
            var result = GoldenResult(name: entry.path, row: index + 1, status: entry.status, message: entry.message, spec: "", milliseconds: entry.milliseconds)
            result.diff = entry.outcome?.result
            if entry.status.fails {
                result.expected = entry.status == .new ? nil : read(entry.path, .expected)
                result.actual = entry.status == .missing ? nil : read(entry.path, .actual)
                result.difference = entry.panel
            }
            return result
        }
    }

    /// The HTML report's files (index.html, expected, actual and difference of each failure)
    /// and the thumbnails, with each thumbnail's path inside the report by relative path.
    package static func reportFiles(_ entries: [FolderComparison.Entry], results: [GoldenResult], title: String)
        -> (files: [HTMLReport.File], thumbnails: [String: String]) {
        var files = HTMLReport.files(results, environment: [], title: title, noun: "images")
        var thumbnails: [String: String] = [:]
        for (index, entry) in entries.enumerated() {
            guard let bytes = entry.thumbnail else { continue }
            let path = "images/\(index + 1)-thumbnail.png"
            files.append(HTMLReport.File(path: path, bytes: bytes))
            thumbnails[entry.path] = path
        }
        return (files, thumbnails)
    }

    /// `path` relative to `folder` (both as given, made absolute against `cwd`): what a
    /// summary links with so the report opens from where the summary is.
    package static func relative(_ path: String, from folder: String, cwd: String) -> String {
        func parts(_ p: String) -> [Substring] {
            var out: [Substring] = []
            for part in ((p.hasPrefix("/") ? p : cwd + "/" + p).split(separator: "/")) {
                if part == "." { continue }
                if part == ".." { _ = out.popLast() } else { out.append(part) }
            }
            return out
        }
        let from = parts(folder), to = parts(path)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let up = Array(repeating: "..", count: from.count - common)
        let joined = (up + to[common...].map(String.init)).joined(separator: "/")
        return joined.isEmpty ? "." : joined
    }

    /// A Markdown summary for a pull-request comment or `$GITHUB_STEP_SUMMARY`: the counts, then
    /// each failing file with why, and its difference thumbnail when the report made one
    /// (`thumbnails` maps a path to the image's path relative to the summary).
    package static func markdown(_ entries: [FolderComparison.Entry], base: GoldenTolerance, thumbnails: [String: String],
                                 reportLink: String?) -> String {
        let failing = entries.filter { $0.status.fails }
        var out = failing.isEmpty ? "### Golden images: all \(entries.count) match\n\n" : "### Golden images: \(failing.count) of \(entries.count) need a look\n\n"
        out += "| " + counts(entries).map { $0.0.rawValue }.joined(separator: " | ") + " |\n"
        out += "|" + String(repeating: "---:|", count: GoldenStatus.allCases.count) + "\n"
        out += "| " + counts(entries).map { String($0.1) }.joined(separator: " | ") + " |\n\n"
        out += "Metric: \(base.options.metric.version).\n"
        if let reportLink { out += "Full report: [\(markdownEscaped(reportLink))](\(linkEscaped(reportLink))).\n" }
        guard !failing.isEmpty else { return out }
        out += "\n| file | status | why | expected, difference, actual |\n|---|---|---|---|\n"
        let shown = failing.prefix(200)
        for entry in shown {
            let why = entry.outcome?.kind?.description ?? (entry.status == .changed ? "changed" : "")
            let picture = thumbnails[entry.path].map { "![\(markdownEscaped(entry.path))](\(linkEscaped($0)))" } ?? ""
            out += "| \(codeSpan(entry.path)) | \(entry.status.rawValue) "
                + "| \(markdownEscaped(why.isEmpty ? entry.message : why)) | \(picture) |\n"
        }
        if failing.count > shown.count { out += "\n…and \(failing.count - shown.count) more (see the report).\n" }
        return out
    }

    /// A file name as a code span inside a table cell, shown exactly: fenced by one backtick
    /// more than its longest run of them (spaced when it starts or ends with one), its `|`
    /// escaped for the table (GFM drops the backslash), a line break as a space.
    package static func codeSpan(_ name: String) -> String {
        var longest = 0, run = 0
        for c in name.unicodeScalars {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        var body = ""
        for c in name.unicodeScalars { body += c == "|" ? "\\|" : c == "\n" || c == "\r" ? " " : String(c) }
        let pad = name.unicodeScalars.first == "`" || name.unicodeScalars.last == "`" ? " " : ""
        return fence + pad + body + pad + fence
    }

    private static func markdownEscaped(_ text: String) -> String {
        // By scalar: `[` + U+0301 is one Character unequal to `[`, and CR LF one unequal to LF.
        var out = ""
        for c in text.unicodeScalars {
            if "\\`*_[]<>#|!&".unicodeScalars.contains(c) { out.append("\\") }
            if c == "\n" || c == "\r" { out.append(" ") } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// A relative link: each path segment percent-encoded except unreserved characters and '/'.
    private static func linkEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// A thumbnail at most `side` pixels wide and high (box-filtered), for the summary.
    package static func thumbnail(_ image: RGBAImage, side: Int = 240) -> RGBAImage {
        let scale = max(1, (max(image.width, image.height) + side - 1) / side)
        let width = max(1, image.width / scale), height = max(1, image.height / scale)
        var out = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var sum = (0, 0, 0, 0)
                for sy in (y * scale)..<(y * scale + scale) {
                    for sx in (x * scale)..<(x * scale + scale) {
                        let p = image[sx, sy]
                        sum = (sum.0 + Int(p.r), sum.1 + Int(p.g), sum.2 + Int(p.b), sum.3 + Int(p.a))
                    }
                }
                let n = scale * scale
                out[x, y] = (UInt8(sum.0 / n), UInt8(sum.1 / n), UInt8(sum.2 / n), UInt8(sum.3 / n))
            }
        }
        return out
    }
}
