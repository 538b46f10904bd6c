import Glibc
import Compare
import Goldens
import PDFGoldens
import Support

/// `compare a.pdf b.pdf`: page count, each page's pixels, words and links, and the outline;
/// one line per differing page (or JSON), an HTML report with each differing page and its
/// text changes. Exit 0 when nothing differs, 1 otherwise.
func runPDFComparison(expected: [UInt8], actual: [UInt8], names: (String, String), options: CompareOptions, folders: FolderFlags,
                      tolerance: GoldenTolerance, maxPixels: Int) throws -> Int32 {
    if options.diff != nil { throw CLIFailure(message: "--diff is for images; for PDFs give --html-report DIR") }
    if folders.summary != nil { throw CLIFailure(message: "--summary-md is for folders") }
    if let junit = folders.junit { try OutputFile.checkWritable(junit) }
    var settings = PDFComparison.Settings()
    settings.tolerance = tolerance
    settings.dpi = tolerance.dpi
    settings.maxPixels = maxPixels
    settings.panels = folders.report != nil
    settings.jobs = try folders.jobs()
    let report: PDFComparison.Report
    do {
        report = try PDFComparison.compare(expected: expected, actual: actual, settings: settings)
    } catch {
        let text = "\(error)"
        let name = text.hasPrefix("expected: ") ? names.0 : text.hasPrefix("actual: ") ? names.1 : "\(names.0) vs \(names.1)"
        throw CLIFailure(message: "\(name): \(text.split(separator: ":", maxSplits: 1).last.map { $0.trimmed } ?? text)")
    }
    let results = PDFReport.results(report)
    if let dir = folders.report {
        try Posix.makeFolder(dir)
        for file in HTMLReport.files(results, environment: [], title: "hlrender compare: \(names.0) vs \(names.1)", noun: "pages",
                                          detail: "text and link changes") {
            try CLIOutput.write(file.bytes, to: dir + "/" + file.path, confinedTo: dir)
        }
    }
    if let junit = folders.junit {
        let seconds = results.reduce(0) { $0 + $1.milliseconds } / 1000
        try CLIOutput.write(Array(JUnitReport.xml(results, suite: "hlrender compare \(names.0)", seconds: seconds).utf8), to: junit)
    }
    if options.json {
        print(PDFReport.json(report, tolerance: tolerance).serialized())
    } else {
        for line in PDFReport.lines(report) { print(line) }
    }
    return report.differs ? ExitStatus.differ : ExitStatus.success
}
