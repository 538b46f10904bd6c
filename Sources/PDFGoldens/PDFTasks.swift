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
        guard let expected = fields["expected"], let actual = fields["actual"] else { throw IsolationError(.refused, "the call needs two PDFs") }
        var tolerance = GoldenTolerance()
        for (name, bytes) in fields.entries where name.hasPrefix("option:") {
            try tolerance.set(String(name.dropFirst(7)), .text(String(decoding: bytes, as: UTF8.self)))
        }
        var settings = PDFComparison.Settings()
        settings.tolerance = tolerance
        settings.dpi = tolerance.dpi
        settings.cancellation = cancellation
        settings.maxPixels = try Checked.int(try fields.number("max-pixels"), "max-pixels", in: PixelLimit.range)
        settings.maxPages = try Checked.int(try fields.number("max-pages"), "max-pages", in: 1...100_000)
        let report = try PDFComparison.compare(expected: expected, actual: actual, settings: settings)
        return Array(PDFReport.json(report, tolerance: tolerance).serialized().utf8)
    }

    /// `pixels`: the most pixels one page of either document takes at the comparison's DPI
    /// (at most `max-pixels`: a larger page is refused by the comparison, not drawn), read
    /// from the pages' boxes without drawing any; the fields are `compare`'s.
    package static func largestPage(_ fields: Fields) throws -> [UInt8] {
        guard let expected = fields["expected"], let actual = fields["actual"] else { throw IsolationError(.refused, "the call needs two PDFs") }
        var tolerance = GoldenTolerance()
        for (name, bytes) in fields.entries where name.hasPrefix("option:") {
            try tolerance.set(String(name.dropFirst(7)), .text(String(decoding: bytes, as: UTF8.self)))
        }
        let maxPixels = try Checked.int(try fields.number("max-pixels"), "max-pixels", in: PixelLimit.range)
        let maxPages = try Checked.int(try fields.number("max-pages"), "max-pages", in: 1...100_000)
        var largest = 0
        for (name, bytes) in [("expected", expected), ("actual", actual)] where PDFComparison.isPDF(bytes) {
            let file: PDFFile
            do { file = try PDFFile(bytes) } catch { throw IsolationError(.refused, "\(name): \(error)") }
            for page in 0..<min(file.pageCount, maxPages) {
                guard let size = try? file.pixelSize(ofPage: page, dpi: tolerance.dpi) else { continue }
                largest = max(largest, Checked.pixels(size.width, size.height, within: maxPixels) ? size.width * size.height : maxPixels)
            }
        }
        var out = Fields()
        out.set("pixels", String(largest))
        return out.encoded
    }
}
