import Flags
import Card
import Compare
import Batch
import Goldens
import Support

/// `batch --expect-dir`: golden tests for a suite of cards.
struct GoldenFlags: FlagGroup {
    @Option("expect-dir", help: Help("Compare each card (PNG, or PDF: pages, words, links) with the file of the same name here; a missing one fails.", valueName: "dir"))
    var expectDir: String?
    /// --config, --update [changed|missing|all], --candidates: as compare has them.
    @Group var run: GoldenRunFlags
    @Option("html-report", help: Help("Write an HTML report (index.html and its images) to this folder.", valueName: "dir"))
    var htmlReport: String?
    @Option("junit", help: Help("Write a JUnit XML report: one testcase per card.", valueName: "file.xml"))
    var junit: String?
    @Flag("review", help: "With --expect-dir, serve the failing cards for review on 127.0.0.1 after the run (as compare --review): Approve records that golden as --update does.")
    var review = false
    @Flag("render-all", help: "With --expect-dir, render every card, even one whose inputs (spec, variables, files it reads, fonts, hlrender and its libraries, options, golden) are those it last passed with.")
    var renderAll = false
    @Flag("system-fonts", help: "With --expect-dir, also use the system's fonts (off by default: goldens must not depend on a machine's fonts).")
    var systemFonts = false
    @Group("Comparison (with --expect-dir; a manifest line's \"compare\" object overrides per card)") var diff: DiffFlags

    /// Flags that need --expect-dir, and a JUnit file that can be written, before any card.
    func validate() throws {
        // Checked even when unused: a bad value given is a mistake either way.
        _ = try diff.tolerance()
        guard expectDir != nil else {
            let stray = [("--update", run.update != nil), ("--candidates", run.candidates != nil), ("--config", run.config != nil),
                         ("--html-report", htmlReport != nil), ("--junit", junit != nil), ("--system-fonts", systemFonts), ("--render-all", renderAll), ("--review", review)].filter(\.1).map(\.0)
            if !stray.isEmpty { throw CLIFailure(message: "\(stray.joined(separator: ", ")) need --expect-dir GOLDEN_DIR") }
            return
        }
        if let junit { try OutputFile.checkWritable(junit) }
        if review, run.update != nil { throw CLIFailure(message: "--review approves goldens one by one; --update writes them all: give one") }
    }

    /// The suite's settings from these flags (goldens.json from the golden folder unless --config).
    func settings(folder: String) throws -> GoldenSuite.Settings {
        var settings = GoldenSuite.Settings()
        settings.update = run.update
        settings.candidates = run.candidates
        settings.config = try run.loadConfig(folder: folder)
        settings.htmlReport = htmlReport
        settings.junit = junit
        settings.renderAll = renderAll
        settings.review = review
        return settings
    }

    /// The run's tolerance before a config rule or a card's "compare" object.
    func base(_ settings: GoldenSuite.Settings) throws -> GoldenTolerance { try run.base(settings.config, flags: diff) }
}
