import Glibc
import Flags
import Compare
import Goldens
import Batch
import Support

extension BaselineUpdate: FlagValue {}

/// What golden runs share, `compare` (files and folders) and `batch --expect-dir` alike: the
/// config file and what may happen to baselines.
struct GoldenRunFlags: FlagGroup {
    @Option("config", help: Help("""
        Comparison options per glob of relative paths (goldens.json; default: goldens.json in the expected or golden folder when there is one).
        """, valueName: "file.json"))
    var config: String?
    @Option("update", bare: BaselineUpdate.all, help: Help("""
        Rewrite baselines from the actual images: alone, all or changed (the failing ones, and new ones), or missing (new ones only). \
        A file that matches is never touched; a baseline with no actual image is never deleted.
        """, valueName: "changed|missing|all"))
    var update: BaselineUpdate?
    @Option("candidates", help: Help("Write the would-be baselines (failing and new images) here; the run still fails.", valueName: "dir"))
    var candidates: String?

    /// The config file: the one named, else FOLDER/goldens.json when there is one.
    func loadConfig(folder: String?) throws -> GoldenConfig {
        let path = config ?? folder.map { $0 + "/" + GoldenConfig.fileName }.flatMap { Posix.kind($0) == .regular ? $0 : nil }
        guard let path else { return GoldenConfig() }
        let bytes = try Posix.readFile(path, as: "config", limit: 16 << 20)
        do {
            return try GoldenConfig(parsing: bytes)
        } catch {
            throw CLIFailure(message: "\(path): \(error.message)")
        }
    }

    /// The run's tolerance before any rule: the defaults, the config file's own options, the flags.
    func base(_ config: GoldenConfig, flags: DiffFlags) throws -> GoldenTolerance {
        var tolerance = config.applyingOwnOptions(to: GoldenTolerance())
        try GoldenTolerance.definitions.apply(flags.given, to: &tolerance)
        return tolerance
    }
}

/// What `compare` does with two folders only: reports, jobs, progress.
struct FolderFlags: FlagGroup {
    @Option("html-report", help: Help("Folders and PDFs: write an HTML report (index.html and its images) to this folder.", valueName: "dir"))
    var report: String?
    @Option("junit", help: Help("Folders: write a JUnit XML report, one testcase per file.", valueName: "file.xml"))
    var junit: String?
    @Option("summary-md", help: Help("""
        Folders: write a Markdown summary (counts, each failing file and why, thumbnails from --html-report) for a pull-request \
        comment or $GITHUB_STEP_SUMMARY.
        """, valueName: "file.md"))
    var summary: String?
    /// `--jobs`, as batch defines it.
    @FlagList(BatchRun.Settings.options.flagSpecs(["jobs"])) var given: GivenFlags
    @Flag("quiet", help: "Folders: no progress line on a terminal.") var quiet = false
    @Flag("review", help: "Folders: serve the failing files for review on 127.0.0.1 (a free port, printed): Approve writes that baseline as --update does, Reject leaves it; j/k, a, r, z on the page; Done ends it (exit 0 when every failing file was approved).")
    var review = false

    /// --jobs as batch reads it; by default the machine's cores.
    func jobs() throws -> Int {
        var run = BatchRun.Settings()
        run.jobs = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        try BatchRun.Settings.options.apply(given, to: &run)
        return run.jobs
    }

    /// Flags that only make sense for folders, named when given for two files.
    var folderOnly: [String] {
        [("--html-report", report != nil), ("--junit", junit != nil), ("--summary-md", summary != nil), ("--jobs", !given.isEmpty),
         ("--review", review)]
            .filter(\.1).map(\.0)
    }
}

/// `compare EXPECTED_DIR ACTUAL_DIR`: exit 0 when every file matches, 1 when any is changed,
/// new, missing or unreadable (after `--update`, the files it wrote no longer count).
func runFolderComparison(expected: String, actual: String, options: CompareOptions, flags: FolderFlags, run runFlags: GoldenRunFlags,
                         maxPixels: Int, maxFileBytes: Int) throws -> Int32 {
    if options.diff != nil { throw CLIFailure(message: "--diff compares two files; for folders give --html-report DIR") }
    if options.sizeMismatch != .fail { throw CLIFailure(message: "--size-mismatch pad compares two files; folders report a size change") }
    let config = try runFlags.loadConfig(folder: expected)
    var settings = FolderComparison.Settings()
    settings.config = config
    settings.base = try runFlags.base(config, flags: options.diffFlags)
    settings.maxPixels = maxPixels
    settings.maxFileBytes = maxFileBytes
    settings.jobs = try flags.jobs()
    // Before any worker starts: one malloc arena per job.
    ReuseMemory.forManyImages(workers: settings.jobs)
    if flags.review, runFlags.update != nil { throw CLIFailure(message: "--review approves baselines one by one; --update writes them all: give one") }
    settings.panels = flags.report != nil || flags.review
    for file in [flags.junit, flags.summary].compactMap({ $0 }) {
        let folder = OutputFile.split(file).0
        if Posix.kind(folder) == .missing { try Posix.makeFolders(folder) }
        try OutputFile.checkWritable(file)
    }
    let terminal = isatty(STDERR_FILENO) != 0 && !flags.quiet
    let entries = try FolderComparison.run(expected: expected, actual: actual, settings: settings) { done, total in
        guard terminal, done == total || done % 8 == 0 else { return }
        Posix.writeAll(STDERR_FILENO, Array("\r\u{1B}[Kcompared \(done) of \(total)".utf8))
    }
    if terminal { Posix.writeAll(STDERR_FILENO, Array("\r\u{1B}[K".utf8)) }
    try writeReports(entries, expected: expected, actual: actual, options: options, flags: flags, settings: settings)
    if flags.review { return try reviewFolders(entries, expected: expected, actual: actual, maxFileBytes: maxFileBytes) }
    var resolved = Set<String>()
    if let update = runFlags.update {
        resolved = Set(try Baselines.write(entries, from: actual, to: expected, maxFileBytes: maxFileBytes, select: update.writes))
        for path in resolved.sorted() { say("updated \(expected)/\(path)") }
    }
    if let candidates = runFlags.candidates {
        try Posix.makeFolders(candidates)
        let written = try Baselines.write(entries, from: actual, to: candidates, maxFileBytes: maxFileBytes) { $0 == .changed || $0 == .new }
        if !written.isEmpty { say("\(written.count) candidate baselines in \(candidates)") }
    }
    let failing = entries.filter { $0.status.fails && !resolved.contains($0.path) }
    return failing.isEmpty ? ExitStatus.success : ExitStatus.differ
}

private func writeReports(_ entries: [FolderComparison.Entry], expected: String, actual: String, options: CompareOptions,
                          flags: FolderFlags, settings: FolderComparison.Settings) throws {
    let maxBytes = settings.maxFileBytes
    let read = { (path: String, which: ComparedImage) -> [UInt8]? in
        try? Posix.readFile((which == .expected ? expected : actual) + "/" + path, as: "image", limit: maxBytes)
    }
    var thumbnails: [String: String] = [:]
    if let report = flags.report {
        let results = FolderReport.results(entries, read: read)
        let made = FolderReport.reportFiles(entries, results: results, title: "hlrender compare: \(expected) vs \(actual)")
        try Posix.makeFolder(report)
        for file in made.files { try CLIOutput.write(file.bytes, to: report + "/" + file.path, confinedTo: report) }
        thumbnails = made.thumbnails.mapValues { report + "/" + $0 }
    }
    if let junit = flags.junit {
        let results = FolderReport.results(entries) { _, _ in nil }
        let seconds = entries.reduce(0) { $0 + $1.milliseconds } / 1000
        try CLIOutput.write(Array(JUnitReport.xml(results, suite: "hlrender compare", seconds: seconds).utf8), to: junit)
    }
    if let summary = flags.summary {
        let folder = summary.contains("/") ? String(summary[..<summary.lastIndex(of: "/")!]) : "."
        let cwd = currentFolder()
        let relative = thumbnails.mapValues { FolderReport.relative($0, from: folder, cwd: cwd) }
        let link = flags.report.map { FolderReport.relative($0 + "/index.html", from: folder, cwd: cwd) }
        try CLIOutput.write(Array(FolderReport.markdown(entries, base: settings.base, thumbnails: relative, reportLink: link).utf8), to: summary)
    }
    if options.json {
        print(FolderReport.json(entries, expected: expected, actual: actual, base: settings.base).serialized())
    } else {
        for entry in entries where entry.status.fails { print("\(entry.status.rawValue): \(entry.path): \(entry.message)") }
        let counts = FolderReport.counts(entries).filter { $0.1 > 0 }.map { "\($0.1) \($0.0.rawValue)" }
        print("\(entries.count) files: " + (counts.isEmpty ? "none" : counts.joined(separator: ", ")))
    }
}

private func currentFolder() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func say(_ line: String) {
    Posix.writeAll(STDERR_FILENO, Array("hlrender: \(line)\n".utf8))
}
