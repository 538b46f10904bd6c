import Card
import Dispatch
import Glibc
import Render
import Synchronization
import Support
import PDFPost

/// A batch: rows rendered on several threads through one engine, each written
/// atomically under the output folder, checked against its golden when a suite is given, and
/// reported as it finishes. Front ends (the CLI's `batch`) give the settings and say what to
/// do with each outcome; one failed row never stops the others (unless `failFast`).
package struct BatchRun: Sendable {
    package struct Settings: Sendable {
        /// Where outputs go (nil: render for proofs or goldens only).
        package var outDir: String?
        /// Rows whose output exists are skipped (a stopped run finishes).
        package var skipExisting = false
        /// Each row's scramble seed is this plus its number, so outputs repeat.
        package var scrambleSeed: UInt64?
        package var jobs = 1
        /// Only this shard's rows (`run` selects them).
        package var shard: Shard?
        package var failFast = false
        package var encoding = EncodeOptions()
        package var pdf = PDFMetadata()
        /// Hand each row's scene to `deliver` (a proof sheet).
        package var proofs = false
        /// Milliseconds each written card waits before it is renamed into place (a test hook).
        package var pauseBeforeRename: UInt32 = 0
        package init() {}
    }

    package struct Outcome: Sendable {
        package enum Status: Sendable { case rendered, skipped, failed(String) }
        package var row: Int
        package var output: String
        package var status: Status
        package var milliseconds: Double
        package var bytes: Int
        /// The card's description (its visible text, or `--alt`; nil: none or not rendered).
        package var alt: String?
    }

    package var settings: Settings
    /// The engine every row renders through.
    package var engine: Engine
    /// Where the rows' relative paths resolve.
    package var folder: String
    package var goldens: GoldenSuite?
    /// The front end's wording of an error (it adds its own hints).
    package var describe: @Sendable (Error) -> String

    package init(settings: Settings, engine: Engine, folder: String, goldens: GoldenSuite?,
                describe: @escaping @Sendable (Error) -> String) {
        (self.settings, self.engine, self.folder, self.goldens, self.describe) = (settings, engine, folder, goldens, describe)
    }

    /// Renders `rows`; `finished` sees each outcome (and its scene when proofs are wanted), in
    /// the order they finish, from the worker threads.
    package func run(_ rows: [BatchRow], finished: @escaping @Sendable (Int, Outcome, Scene?) -> Void) {
        let rows = settings.shard?.select(rows) ?? rows
        let next = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: min(max(1, settings.jobs), max(1, rows.count))) { _ in
            while !stop.load(ordering: .relaxed) {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < rows.count else { return }
                let (outcome, scene) = render(rows[i])
                finished(i, outcome, scene)
                if settings.failFast, case .failed = outcome.status { stop.store(true, ordering: .relaxed) }
            }
        }
    }

    func render(_ row: BatchRow) -> (Outcome, Scene?) {
        let start = Clock.now()
        var name = row.output
        do {
            if let problem = row.problem { throw BatchError(problem) }
            name = try Variables.fill(row.output, row.variables, path: "output")
            let path = try settings.outDir.map { try BatchManifest.outputPath(name, in: $0) }
            let skip = settings.skipExisting && path.map { Posix.kind($0) == .regular } == true
            if skip && !settings.proofs {
                return (Outcome(row: row.number, output: name, status: .skipped, milliseconds: 0, bytes: 0), nil)
            }
            let ext = name.utf8.lastIndex(of: UInt8(ascii: ".")).map { String(name[name.utf8.index(after: $0)...]).lowercased() } ?? ""
            if ext == "mp4" { throw CardError("output", "'\(name)': a batch writes animations as .webp, .png or .apng (MP4: hlrender card)") }
            guard let format = OutputFormat(extension: ext == "apng" ? "png" : ext), name.contains(".") else {
                throw CardError("output", "'\(name)' has no \(OutputFormat.extensionList) extension")
            }
            var spec = row.spec
            var row = row
            if let seed = settings.scrambleSeed, case let .object(members) = spec, spec["scramble-seed"] == nil {
                row.specText = nil  // the line no longer says what renders
                // Each row's own seed, the same whichever worker renders it.
                spec = .object(members + [(key: "scramble-seed", value: .number(Double((seed &+ UInt64(row.number)) % (1 << 52))))])
            }
            let write = path != nil && !skip
            if goldens != nil, format != .png, format != .pdf { throw CardError("output", "'\(name)': golden tests compare PNG and PDF cards") }
            // A golden-only run skips a card whose inputs are those of its passing golden.
            let card = goldens?.cardInputs(row, name: name, spec: spec)
            if let goldens, let card, !write, !settings.proofs, goldens.unchanged(row, name: name, card: card) {
                return (Outcome(row: row.number, output: name, status: .skipped, milliseconds: Clock.since(start), bytes: 0), nil)
            }
            var job = Job(format: format, encoding: settings.encoding)
            job.pdf = settings.pdf
            job.draw = write || goldens != nil
            job.layoutReport = goldens != nil  // stored beside each golden; nobody else reads it
            if goldens?.tracksInputs == true { job.readLog = ReadLog() }
            // The row's spec, parsed once for whichever way it is drawn. A template with effects
            // writes an animation; in a golden run an APNG, compared with its golden frame by frame.
            let parsed = try engine.parse(spec, variables: row.variables, folder: folder)
            if write || goldens != nil, let container = AnimationFormat(extension: ext), parsed.isAnimated || ext == "apng" {
                let output = try engine.animate(parsed, as: container, job: job).output
                if let goldens, let card {
                    goldens.check(row, name: name, card: card, output: output.bytes, fonts: output.card.scene.fontFiles,
                                  files: job.readLog?.files ?? [], dump: output.card.dump, milliseconds: Clock.since(start))
                }
                if write, let path {
                    try OutputFile.write(output.bytes, to: path, confinedTo: settings.outDir, pauseBeforeRename: settings.pauseBeforeRename)
                }
                return (Outcome(row: row.number, output: name, status: skip ? .skipped : .rendered, milliseconds: Clock.since(start),
                                bytes: write ? output.bytes.count : 0, alt: output.description), settings.proofs ? output.card.scene : nil)
            }
            let rendered = try engine.render(parsed, job: job)
            if let goldens, let card {
                goldens.check(row, name: name, card: card, output: rendered.bytes, fonts: rendered.card.scene.fontFiles,
                              files: job.readLog?.files ?? [], dump: rendered.card.dump, milliseconds: Clock.since(start))
            }
            let scene = settings.proofs ? rendered.card.scene : nil
            guard write, let path else {
                return (Outcome(row: row.number, output: name, status: skip ? .skipped : .rendered, milliseconds: Clock.since(start),
                                bytes: 0, alt: rendered.description), scene)
            }
            try OutputFile.write(rendered.bytes, to: path, confinedTo: settings.outDir, pauseBeforeRename: settings.pauseBeforeRename)
            return (Outcome(row: row.number, output: name, status: .rendered, milliseconds: Clock.since(start),
                            bytes: rendered.bytes.count, alt: rendered.description), scene)
        } catch var error as CardError where error.missingVariable != nil {
            // Variables come from the row here.
            error.message += error.missingVariables.count > 1 ? " (the row has no columns or keys of those names)" : " (the row has no column or key of that name)"
            return failed(error, row: row, name: name, start: start)
        } catch {
            return failed(error, row: row, name: name, start: start)
        }
    }

    private func failed(_ error: Error, row: BatchRow, name: String, start: Double) -> (Outcome, Scene?) {
        let message = describe(error), milliseconds = Clock.since(start)
        goldens?.failed(row, name: name, message: message, milliseconds: milliseconds)
        return (Outcome(row: row.number, output: name, status: .failed(message), milliseconds: milliseconds, bytes: 0), nil)
    }
}

/// Monotonic time in ms.
package enum Clock {
    package static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }

    package static func since(_ start: Double) -> Double { now() - start }
}
