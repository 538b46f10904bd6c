import Flags
import Batch
import Card
import Dispatch
import Glibc
import Render
import Synchronization
import Typeset
import Support
import PDFPost

struct BatchCommand: Command {
    static let info = CommandInfo(
        name: "batch",
        abstract: "Render many cards in one process: a JSONL manifest, or a template filled from CSV/JSONL rows.",
        discussion: """
            hlrender batch CARDS.jsonl --out-dir DIR (each line a card spec with "output"), or \
            hlrender batch --template CARD.json --data ROWS.csv --output '{{id}}.png' --out-dir DIR. \
            Outputs are written atomically, so a killed run leaves only whole files; --skip-existing \
            finishes it. --shard K/N renders rows whose index (from 0) % N == K. \
            Exit status: 0 every card rendered (and, with --expect-dir, matched its golden); \
            1 with --expect-dir, some card differs from its golden or has none; 3 some card did not render, or bad input.
            """,
        examples: [
            "hlrender batch samples/batch/cards.jsonl --out-dir out/",
            "hlrender batch --template samples/batch/card.json --data samples/batch/rows.csv --output '{{id}}.png' --out-dir out/",
            "hlrender batch --template samples/batch/card.json --data samples/batch/rows.csv --output '{{id}}.png' --expect-dir goldens/ --update",
        ])

    @Argument(help: Help("A JSONL manifest: one card spec per line, each with \"output\".", valueName: "cards.jsonl"))
    var manifest: String?
    @Option("template", help: Help("A card spec whose {{variables}} each data row fills.", valueName: "card.json")) var template: String?
    @Option("data", help: Help("Rows for --template: CSV (the header names the variables) or JSONL objects.", valueName: "rows.csv"))
    var data: String?
    @Option("output", help: Help("Output file name pattern for --template, e.g. '{{id}}.png' (its extension picks the format).", valueName: "pattern"))
    var output: String?
    @Option("out-dir", help: Help("Folder the outputs go to (made if missing); optional with --pdf.", valueName: "dir")) var outDir: String?
    @Option("report", help: Help("Write one JSON line per card: row, output, status, error, ms, bytes, alt.", valueName: "file.jsonl"))
    var report: String?
    @FlagList(BatchRun.Settings.options.flagSpecs(["jobs", "skip-existing", "shard", "fail-fast", "scramble-seed"])) var given: GivenFlags
    @Flag("quiet", help: "No progress on stderr.") var quiet = false
    @Group var runOptions: CardRunOptions
    @Group("Golden tests") var goldenFlags: GoldenFlags

    func run() throws {
        var settings = BatchRun.Settings()
        settings.jobs = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        settings.pauseBeforeRename = CLIOutput.pauseBeforeRename
        try BatchRun.Settings.options.apply(given, to: &settings)
        // Before any worker starts: one malloc arena per job.
        ReuseMemory.forManyImages(workers: settings.jobs)
        // A suite's record is read on another core while the rows are (each takes a 10,000-card
        // suite tens of milliseconds).
        let limit = runOptions.limits.image
        let pendingRecord = goldenFlags.expectDir.map { folder in (folder, Pending { GoldenInputs.Record(folder: folder, readLimit: limit) }) }
        let (rows, folder) = try loadRows()
        let selected = settings.shard?.select(rows) ?? rows
        defer { KeptUntilExit.keep(rows, selected) }
        settings.shard = nil  // selected here: the progress line counts this shard's rows
        try goldenFlags.validate()
        // Goldens must not depend on a machine's fonts: only the pinned ones unless asked.
        // A row's pictures are decoded in a limited worker: one hostile file fails its row alone.
        let engine = try runOptions.engine(systemFonts: goldenFlags.expectDir == nil || goldenFlags.systemFonts, decoders: .worker)
        let proofs = try runOptions.proofSheet(fonts: engine.world.fonts)
        guard outDir != nil || proofs != nil || goldenFlags.expectDir != nil else {
            throw CLIFailure(message: "give --out-dir DIR for the cards (or --pdf FILE for a proof sheet, --expect-dir DIR for golden tests)")
        }
        settings.encoding = try runOptions.encoding.options()
        settings.pdf = try runOptions.pdf.metadata(checkingNeeds: false)
        let goldens = try pendingRecord.map { folder, pendingRecord in
            var suite = try goldenFlags.settings(folder: folder)
            // What every card's output depends on besides its own spec and files: a card
            // whose inputs all hash as when it passed is not rendered again.
            // Font files are hashed once and their hashes kept with the record: a font whose
            // size and time are unchanged is not read again.
            let record = try pendingRecord.value()
            suite.inputsRecord = record
            let recorded = record.fonts
            var hashes: [GoldenInputs.FileHash] = []
            let fonts = engine.inputFingerprint { path in
                let hash = GoldenInputs.fontHash(path, recorded: recorded)
                if let hash { hashes.append(hash) }
                return hash?.sha256
            }
            suite.fontHashes = hashes.sorted { $0.path < $1.path }
            suite.runInputs = [HLRender.version, fonts,
                               "\(settings.encoding)", Self.fingerprint(settings.pdf), settings.scrambleSeed.map { "seed \($0)" } ?? "no seed",
                               "limit \(limit) pixels \(try runOptions.pixelLimit.pixels())"].joined(separator: "\n")
            return GoldenSuite(settings: suite, folder: folder, tolerance: try goldenFlags.base(suite),
                        maxPixels: try runOptions.pixelLimit.pixels(), inputLimit: runOptions.limits.image, describe: describe) { line in
                Posix.writeAll(STDERR_FILENO, Array("hlrender: \(line)\n".utf8))
            }
        }
        defer { KeptUntilExit.keep(goldens) }
        let started = Clock.now()
        if let outDir { try Posix.makeFolders(outDir) }
        settings.outDir = outDir
        settings.proofs = proofs != nil
        let reportFile = try report.map { try ReportFile(path: $0) }
        let progress = BatchProgress(total: selected.count, quiet: quiet, goldens: goldens != nil)
        BatchRun(settings: settings, engine: engine, folder: folder, goldens: goldens, describe: describe)
            .run(selected) { i, outcome, scene in
                proofs?.deliver(scene, at: i, name: outcome.output)
                reportFile?.write(outcome)
                progress.record(outcome)
            }
        reportFile?.close()
        let summary = progress.finish()
        if let proofs, summary.failed == 0 || !settings.failFast {
            let pages = try proofs.finish()
            if !quiet { Posix.writeAll(STDERR_FILENO, Array("hlrender: proof sheet: \(pages) pages in \(proofs.path)\n".utf8)) }
        }
        if let goldens {
            var verdict = try goldens.finish(version: HLRender.version, seconds: Clock.since(started) / 1000)
            if goldenFlags.review, verdict == .failed, let folder = goldenFlags.expectDir {
                let cards = goldens.reviewable()
                let items = cards.enumerated().map { i, card in
                    ReviewPage.Item(index: i, path: card.name, status: card.status, kind: card.status.rawValue, message: card.message,
                                    approvable: true, difference: card.difference != nil)
                }
                let session = ReviewSession(items: items, title: "hlrender review: goldens in \(folder)", image: { i, which in
                    switch which {
                    case "expected": cards[i].expected
                    case "actual": cards[i].actual
                    case "difference": cards[i].difference
                    default: nil
                    }
                }, approve: { i in try goldens.approve(cards[i]) })
                let (approved, rejected) = try runReview(session)
                // Every failing card approved: the suite now passes (cards that could not be
                // rendered still fail it).
                if reviewSummary(session, approved: approved, rejected: rejected, folder: folder) == ExitStatus.success { verdict = .passed }
            }
            switch verdict {
            case .passed: break
            case .failed: throw ExitCode(ExitStatus.differ)
            case .notRendered: throw ExitCode(ExitStatus.badInput)
            }
        }
        if summary.failed > 0 { throw ExitCode(ExitStatus.badInput) }
    }

    /// The PDF settings as text that is the same in every run (a set's order is not).
    private static func fingerprint(_ pdf: PDFMetadata) -> String {
        var settings = pdf
        settings.standards = []
        return "\(settings) standards \(pdf.standards.map(\.rawValue).sorted())"
    }

    private func loadRows() throws -> ([BatchRow], String) {
        switch (manifest, template) {
        case let (manifest?, nil):
            guard data == nil, output == nil else { throw CLIFailure(message: "--data and --output go with --template, not a manifest") }
            let bytes = try Posix.readFile(manifest, as: "manifest", limit: runOptions.limits.image)
            return (try BatchManifest.cards(bytes, name: manifest, keepText: goldenFlags.expectDir != nil), OutputFile.split(manifest).0)
        case let (nil, template?):
            guard let data else { throw CLIFailure(message: "--template needs --data ROWS.csv or ROWS.jsonl") }
            guard let output else { throw CLIFailure(message: "--template needs --output PATTERN, e.g. '{{id}}.png'") }
            let spec: JSONValue
            do {
                spec = try JSONValue.parse(try Posix.readFile(template, as: "template", limit: runOptions.limits.text))
            } catch let error as JSONSyntaxError {
                throw CLIFailure(message: "\(template): \(error)")
            }
            let rows = try BatchManifest.template(spec, data: try Posix.readFile(data, as: "data", limit: runOptions.limits.image),
                                                  dataName: data, pattern: output)
            return (rows, OutputFile.split(template).0)
        case (nil, nil): throw CLIFailure(message: "give a manifest (CARDS.jsonl) or --template CARD.json --data ROWS")
        case (_?, _?): throw CLIFailure(message: "give either a manifest or --template, not both")
        }
    }
}
