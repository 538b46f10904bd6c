import Flags
import Card
import Compare
import Batch
import Goldens
import Support

/// `batch --expect-dir`: golden tests for a suite of cards.
struct GoldenFlags: FlagGroup {
    @Option("expect-dir", help: Help("Compare each card (PNG) with the file of the same name here; a missing one fails.", valueName: "dir"))
    var expectDir: String?
    @Flag("update", help: "Write the cards that differ from their goldens, or have none, as the new goldens (and hlrender-env.json).")
    var update = false
    @Option("html-report", help: Help("Write an HTML report (index.html and its images) to this folder.", valueName: "dir"))
    var htmlReport: String?
    @Option("junit", help: Help("Write a JUnit XML report: one testcase per card.", valueName: "file.xml"))
    var junit: String?
    @Flag("system-fonts", help: "With --expect-dir, also use the system's fonts (off by default: goldens must not depend on a machine's fonts).")
    var systemFonts = false
    @Group("Comparison (with --expect-dir; a manifest line's \"compare\" object overrides per card)") var diff: DiffFlags

    /// Flags that need --expect-dir, and a JUnit file that can be written, before any card.
    func validate() throws {
        // Checked even when unused: a bad value given is a mistake either way.
        _ = try diff.tolerance()
        guard expectDir != nil else {
            let stray = [("--update", update), ("--html-report", htmlReport != nil), ("--junit", junit != nil),
                         ("--system-fonts", systemFonts)].filter(\.1).map(\.0)
            if !stray.isEmpty { throw CLIFailure(message: "\(stray.joined(separator: ", ")) need --expect-dir GOLDEN_DIR") }
            return
        }
        if let junit { try OutputFile.checkWritable(junit) }
    }

    /// The suite's settings from these flags.
    var settings: GoldenSuite.Settings {
        var settings = GoldenSuite.Settings()
        settings.update = update
        settings.htmlReport = htmlReport
        settings.junit = junit
        return settings
    }
}
