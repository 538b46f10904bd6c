import Goldens
import Support

/// The PDF comparison as a worker task (poppler reads both files there, so a hostile PDF ends
/// the worker, not the caller): fields in, the report's JSON out. The caller names the
/// comparison options by their option names; they are parsed here by the same definitions.
package enum PDFTasks {
    package static let compare = "pdf-compare"
    package static let largestPage = "pdf-largest-page"

    /// The fields of one comparison: both files, the options given as text, the limits.
    package static func fields(expected: [UInt8], actual: [UInt8], options: [(String, String)], maxPixels: Int, maxPages: Int) -> Fields {
        var fields = Fields([("expected", expected), ("actual", actual)])
        for (name, value) in options { fields.set("option:" + name, value) }
        fields.set("max-pixels", String(maxPixels)); fields.set("max-pages", String(maxPages))
        return fields
    }

    /// The report as JSON (`PDFReport.json`); errors as `PDFComparison` throws them.
    package static func compare(_ fields: Fields, cancellation: Cancellation? = nil) throws -> [UInt8] {
        let call = try parse(fields)
        var settings = PDFComparison.Settings()
        settings.tolerance = call.tolerance
        settings.dpi = call.tolerance.dpi
        settings.cancellation = cancellation
        (settings.maxPixels, settings.maxPages) = (call.maxPixels, call.maxPages)
        let report = try PDFComparison.compare(expected: call.expected, actual: call.actual, settings: settings)
        return Array(PDFReport.json(report, tolerance: call.tolerance).serialized().utf8)
    }

    /// `pixels`: the most pixels one page of either document takes at the comparison's DPI
    /// (at most `max-pixels`: a larger page is refused by the comparison, not drawn), read
    /// from the pages' boxes without drawing any; the fields are `compare`'s.
    package static func largestPage(_ fields: Fields) throws -> [UInt8] {
        let call = try parse(fields)
        var largest = 0
        for (name, bytes) in [("expected", call.expected), ("actual", call.actual)] where PDFComparison.isPDF(bytes) {
            let file: PDFFile
            do { file = try PDFFile(bytes) } catch { throw IsolationError(.refused, "\(name): \(error)") }
            for page in 0..<min(file.pageCount, call.maxPages) {
                guard let size = try? file.pixelSize(ofPage: page, dpi: call.tolerance.dpi) else { continue }
                largest = max(largest, Checked.pixels(size.width, size.height, within: call.maxPixels) ? size.width * size.height : call.maxPixels)
            }
        }
        var out = Fields()
        out.set("pixels", String(largest))
        return out.encoded
    }

    /// What both tasks read from the fields: the two files, the options (by the same
    /// definitions the caller's flags use) and the limits.
    private static func parse(_ fields: Fields) throws -> (expected: [UInt8], actual: [UInt8], tolerance: GoldenTolerance, maxPixels: Int, maxPages: Int) {
        guard let expected = fields["expected"], let actual = fields["actual"] else { throw IsolationError(.refused, "the call needs two PDFs") }
        var tolerance = GoldenTolerance()
        for (name, bytes) in fields.entries where name.hasPrefix("option:") {
            try tolerance.set(String(name.dropFirst(7)), .text(String(decoding: bytes, as: UTF8.self)))
        }
        return (expected, actual, tolerance, try Checked.int(try fields.number("max-pixels"), "max-pixels", in: PixelLimit.range),
                try Checked.int(try fields.number("max-pages"), "max-pages", in: 1...100_000))
    }
}
