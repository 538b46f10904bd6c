import Card
import Dispatch
import Glibc
import Render
import Synchronization
import Support

/// A batch: rows rendered on several threads with one set of resources, each written
/// atomically under the output folder, checked against its golden when a suite is given, and
/// reported as it finishes. Front ends (the CLI's `batch`) give the settings and say what to
/// do with each outcome; one failed row never stops the others (unless `failFast`).
public struct BatchRun: Sendable {
    public struct Settings: Sendable {
        /// Where outputs go (nil: render for proofs or goldens only).
        public var outDir: String?
        /// Rows whose output exists are skipped (a stopped run finishes).
        public var skipExisting = false
        /// Each row's scramble seed is this plus its number, so outputs repeat.
        public var scrambleSeed: UInt64?
        public var jobs = 1
        public var failFast = false
        public var encoding = EncodeOptions()
        public var pdf = PDFMetadata()
        /// Hand each row's scene to `deliver` (a proof sheet).
        public var proofs = false
        public init() {}
    }

    public struct Outcome: Sendable {
        public enum Status: Sendable { case rendered, skipped, failed(String) }
        public var row: Int
        public var output: String
        public var status: Status
        public var milliseconds: Double
        public var bytes: Int
    }

    public var settings: Settings
    public var resources: CardResources
    /// Where the rows' relative paths resolve.
    public var folder: String
    public var goldens: GoldenSuite?
    /// The front end's wording of an error (it adds its own hints).
    public var describe: @Sendable (Error) -> String

    public init(settings: Settings, resources: CardResources, folder: String, goldens: GoldenSuite?,
                describe: @escaping @Sendable (Error) -> String) {
        (self.settings, self.resources, self.folder, self.goldens, self.describe) = (settings, resources, folder, goldens, describe)
    }

    /// Renders `rows`; `finished` sees each outcome (and its scene when proofs are wanted), in
    /// the order they finish, from the worker threads.
    public func run(_ rows: [BatchRow], finished: @escaping @Sendable (Int, Outcome, Scene?) -> Void) {
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
            guard let format = OutputFormat(extension: String(name.split(separator: ".").last ?? "")), name.contains(".") else {
                throw CardError("output", "'\(name)' has no .png, .jpg, .webp or .pdf extension")
            }
            var spec = row.spec
            if let seed = settings.scrambleSeed, case let .object(members) = spec, spec["scramble-seed"] == nil {
                // Each row's own seed, the same whichever worker renders it.
                spec = .object(members + [(key: "scramble-seed", value: .number(Double((seed &+ UInt64(row.number)) % (1 << 52))))])
            }
            let write = path != nil && !skip
            if goldens != nil, format != .png { throw CardError("output", "'\(name)': golden tests compare PNG cards") }
            let rendered = try CardRender.render(spec, variables: row.variables, folder: folder, resources: resources,
                                                 format: format, encoding: settings.encoding, pdf: settings.pdf,
                                                 render: write || goldens != nil)
            goldens?.check(row, name: name, png: rendered.bytes, fonts: rendered.card.scene.fontFiles,
                           milliseconds: Clock.since(start))
            let scene = settings.proofs ? rendered.card.scene : nil
            guard write, let path else {
                return (Outcome(row: row.number, output: name, status: skip ? .skipped : .rendered, milliseconds: Clock.since(start),
                                bytes: 0), scene)
            }
            try OutputFile.write(rendered.bytes, to: path, confinedTo: settings.outDir)
            return (Outcome(row: row.number, output: name, status: .rendered, milliseconds: Clock.since(start),
                            bytes: rendered.bytes.count), scene)
        } catch var error as CardError where error.missingVariable != nil {
            // Variables come from the row here.
            error.message += " (the row has no column or key of that name)"
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
public enum Clock {
    public static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }

    public static func since(_ start: Double) -> Double { now() - start }
}
