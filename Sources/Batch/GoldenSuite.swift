import Card
import Glibc
import Goldens
import PDFGoldens
import Render
import Synchronization
import Support

/// One batch run against a folder of goldens: each worker checks its cards here; at the end
/// the goldens are re-recorded (`update`) or the failures reported (summary lines, HTML,
/// JUnit). The front end words its own errors (`describe`) and prints the lines (`say`).
package final class GoldenSuite: Sendable {
    package struct Settings: Sendable {
        /// Rewrite goldens: the failing cards and the new ones (`changed`), or only the new ones.
        /// A card that matches its golden is never written.
        package var update: BaselineUpdate?
        /// Write the would-be goldens of failing and new cards here; the suite still fails.
        package var candidates: String?
        /// Options per glob of golden names (goldens.json), between the run's flags and a card's "compare".
        package var config = GoldenConfig()
        package var htmlReport: String?
        package var junit: String?
        /// The run's part of each card's inputs (`GoldenInputs`): set, a card whose inputs hash
        /// to the value stored with its passing golden is not rendered; nil keeps no record.
        package var runInputs: String?
        /// The font files hashed for `runInputs`, kept with the record (sorted by path).
        package var fontHashes: [GoldenInputs.FileHash] = []
        /// The folder's record of inputs, when the caller has read it already (for its fonts).
        package var inputsRecord: GoldenInputs.Record?
        /// Render every card even when its inputs are unchanged (the record is still kept).
        package var renderAll = false
        /// Keep what a review needs to approve a card as `--update` would (`approve`).
        package var review = false
        package init() {}
    }

    /// How a suite ended.
    package enum Verdict: Sendable { case passed, failed, notRendered }

    let settings: Settings
    let folder: String
    private let describe: @Sendable (Error) -> String
    private let say: @Sendable (String) -> Void
    /// The run's comparison flags, parsed once; a card's "compare" object goes on top.
    private let tolerance: GoldenTolerance
    /// `tolerance.fingerprint`, for the cards no rule or "compare" changes.
    private let baseFingerprint: String
    private let maxPixels: Int
    private let inputLimit: Int
    private let state = Mutex<(results: [GoldenResult], fonts: Set<String>, unrendered: Int)>(([], [], 0))
    /// Each rendered card's spec and layout (`LayoutExplanation.record`), kept with its golden
    /// when `--update` writes it.
    private let layouts = Mutex<[String: JSONValue]>([:])
    /// What each passing card was rendered from (nil: no record kept).
    private let inputs: GoldenInputs?
    /// What the workers' comparisons decode together: the pixel limit's worth once (two images
    /// and a three-panel difference), however many jobs run.
    private let comparisons: WaitingBudget

    package init(settings: Settings, folder: String, tolerance: GoldenTolerance, maxPixels: Int, inputLimit: Int,
                describe: @escaping @Sendable (Error) -> String, say: @escaping @Sendable (String) -> Void) {
        (self.settings, self.folder, self.tolerance, baseFingerprint) = (settings, folder, tolerance, tolerance.fingerprint)
        (self.maxPixels, self.inputLimit, self.describe, self.say) = (maxPixels, inputLimit, describe, say)
        inputs = settings.runInputs.map {
            GoldenInputs(record: settings.inputsRecord ?? GoldenInputs.Record(folder: folder, readLimit: inputLimit),
                         run: $0, fonts: settings.fontHashes, readLimit: inputLimit)
        }
        comparisons = WaitingBudget(bytes: maxPixels.multipliedReportingOverflow(by: 20).overflow ? Int.max : maxPixels * 20)
    }

    /// Whether the run keeps a record of each card's inputs (a render then logs its reads).
    package var tracksInputs: Bool { inputs != nil }

    /// The message of a card not rendered because its inputs are unchanged.
    package static let unchangedMessage = "inputs unchanged since it passed: not rendered again"

    /// True when the card's inputs (`spec` as it will render, after the seed) hash to the value
    /// stored with its passing golden: its verdict is kept and it need not be rendered.
    package func unchanged(_ row: BatchRow, name: String, card: String) -> Bool {
        // The golden's stamp is read there (a file gone or replaced by a folder is no match).
        guard let inputs, !settings.renderAll, let path = try? BatchManifest.outputPath(name, in: folder),
              let status = inputs.unchanged(name, card: card, goldenPath: path) else { return false }
        let result = GoldenResult(name: name, row: row.number, status: status, message: Self.unchangedMessage, spec: "", milliseconds: 0)
        state.withLock {
            $0.results.append(result)
            $0.unrendered += 1
        }
        return true
    }

    /// The card's own part of its inputs: output name, spec, variables and comparison limits
    /// (worked out once a card, for `unchanged` and `check`). A row's `specText`, its line as
    /// written, stands for `spec` (a line written another way renders the card once more).
    package func cardInputs(_ row: BatchRow, name: String, spec: JSONValue) -> String {
        // Most cards compare under the run's own limits: their text is written once a run.
        let limits = row.compare == nil && !settings.config.hasRule(for: name) ? baseFingerprint
            : (try? GoldenSuite.tolerance(settings.config.tolerance(for: name, base: tolerance), card: row.compare)).map(\.fingerprint)
        let variables = row.variables.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value }
        let text = row.specText ?? spec.compact
        return ([name, text, limits ?? "bad limits"] + variables).joined(separator: "\u{0}")
    }

    /// Compares a rendered card (PNG, or PDF: pages, words, links) with its golden and keeps
    /// the verdict; `spec` and `files` (what the render read) are its inputs.
    /// `dump` is the card's layout; `card` its `cardInputs`.
    package func check(_ row: BatchRow, name: String, card: String, output: [UInt8], fonts: Set<String>, files: [String],
                       dump: JSONValue? = nil, milliseconds: Double) {
        // The spec as rendered (variables filled) and its layout, made only when a change is
        // explained or a golden may be written.
        let keepLayout = settings.update != nil || settings.review
        var made: JSONValue?
        let layout = { () -> JSONValue? in
            guard let dump else { return nil }
            if made == nil { made = LayoutExplanation.record(spec: (try? Variables.substitute(row.spec, row.variables)) ?? row.spec, layout: dump) }
            return made
        }
        // The golden's own record, read once (ignored nodes and the explanation both use it).
        var recordedLayout: JSONValue??
        let recorded = { (path: String) -> JSONValue? in
            if let known = recordedLayout { return known }
            let file = LayoutExplanation.fileName(forGolden: path)
            let value = Posix.kind(file) == .regular ? (try? Posix.readFile(file, as: "layout", limit: self.inputLimit)).flatMap { try? JSONValue.parse($0) } : nil
            recordedLayout = .some(value)
            return value
        }
        var result = GoldenResult(name: name, row: row.number, status: .error, message: "", spec: "", milliseconds: milliseconds)
        var golden: [UInt8]?
        do {
            let path = try BatchManifest.outputPath(name, in: folder)
            golden = Posix.kind(path) == .regular ? try Posix.readFile(path, as: "golden", limit: inputLimit) : nil
            let base = settings.config.tolerance(for: name, base: tolerance)
            var chosen = try GoldenSuite.tolerance(base, card: row.compare)
            if !chosen.ignoreNodes.isEmpty { try place(&chosen, layouts: [layout(), recorded(path)].compactMap { $0 }) }
            if PDFComparison.isPDF(output) {
                try checkPDF(output, golden: golden, tolerance: chosen, into: &result)
            } else {
                // The difference image only for the HTML report that shows it.
                try GoldenCheck.check(output, golden: golden, tolerance: chosen, maxPixels: maxPixels, budget: comparisons,
                                      panel: settings.htmlReport != nil || settings.review, into: &result)
            }
        } catch {
            result.status = .error
            result.message = describe(error)
        }
        if result.status == .changed, let path = try? BatchManifest.outputPath(name, in: folder), let old = recorded(path), let new = layout() {
            explain(&result, recorded: old, layout: new)
        }
        if keepLayout, let layout = layout() { layouts.withLock { $0[name] = layout } }
        if result.status.fails { result.spec = [result.spec, Self.spec(row)].filter { !$0.isEmpty }.joined(separator: "\n\n") }
        if let inputs, let path = try? BatchManifest.outputPath(name, in: folder) {
            switch result.status {
            case .same, .within:
                inputs.passed(name, status: result.status, card: card, golden: golden ?? [], goldenPath: path, files: files, once: false)
            case .new where keepLayout, .changed where keepLayout:
                // Recorded, the output is the golden: the same from then on.
                inputs.passed(name, status: .same, card: card, golden: output, goldenPath: path, files: files, once: true)
            default:
                inputs.failed(name)
            }
        }
        state.withLock {
            $0.results.append(result)
            $0.fonts.formUnion(fonts)
        }
    }

    /// A PDF card against its golden through `PDFComparison`: the differing pages and their
    /// text and link changes are the message and the report's detail.
    private func checkPDF(_ output: [UInt8], golden: [UInt8]?, tolerance: GoldenTolerance, into result: inout GoldenResult) throws {
        guard let golden else {
            (result.status, result.message, result.actual) = (.new, GoldenCheck.noGolden, output)
            return
        }
        var settings = PDFComparison.Settings()
        (settings.tolerance, settings.dpi, settings.maxPixels) = (tolerance, tolerance.dpi, maxPixels)
        let report = try comparisons.with(maxPixels.multipliedReportingOverflow(by: 12).overflow ? Int.max : maxPixels * 12) {
            try PDFComparison.compare(expected: golden, actual: output, settings: settings)
        }
        if report.differs {
            let lines = PDFReport.lines(report)
            (result.status, result.message, result.actual) = (.changed, lines.last ?? "the PDF differs", output)
            result.spec = lines.dropLast().joined(separator: "\n")
        } else {
            (result.status, result.message) = (report.pages.allSatisfy { $0.status == .same } ? .same : .within, "same pages, text and links")
        }
    }

    /// Ignored card nodes as rectangles: each node's box in this run's layout and in the one
    /// recorded with the golden (where it was), so a node that moved is skipped in both places.
    /// A span over many lines is one rectangle around its boxes: every compared pixel is tested
    /// against each region, so a node adds at most one per layout (`maxIgnoreRegions` nodes).
    private func place(_ tolerance: inout GoldenTolerance, layouts: [JSONValue]) throws {
        for node in tolerance.ignoreNodes {
            let boxes = layouts.compactMap { LayoutExplanation.box(of: node, in: $0) }
            guard !boxes.isEmpty else { throw CardError("compare.ignore", "'\(node)' is not a block or span of this card's layout") }
            tolerance.options.ignore += boxes
        }
        tolerance.ignoreNodes = []
    }

    /// What changed in the card's terms, from the spec and layout recorded with its golden:
    /// the first two findings join the message, all of them head the report's detail.
    private func explain(_ result: inout GoldenResult, recorded: JSONValue, layout: JSONValue) {
        let findings = LayoutExplanation.explain(expected: recorded, actual: layout)
        guard !findings.isEmpty else { return }
        result.message += "; " + findings.prefix(2).joined(separator: "; ") + (findings.count > 2 ? "; ..." : "")
        result.spec = ([findings.joined(separator: "\n")] + [result.spec].filter { !$0.isEmpty }).joined(separator: "\n\n")
    }

    /// A card that could not be rendered: an error in the reports.
    package func failed(_ row: BatchRow, name: String, message: String, milliseconds: Double) {
        let result = GoldenResult(name: name, row: row.number, status: .error, message: message, spec: Self.spec(row),
                                  milliseconds: milliseconds)
        state.withLock { $0.results.append(result) }
        inputs?.failed(name)
    }

    private static func spec(_ row: BatchRow) -> String {
        ((try? Variables.substitute(row.spec, row.variables)) ?? row.spec).serialized()
    }

    /// Re-records or reports: every card passed (or was recorded), some goldens differ or are
    /// missing, or some cards could not be rendered.
    package func finish(version: String, seconds: Double) throws -> Verdict {
        let (results, fonts, unrendered) = state.withLock { ($0.results.sorted { $0.row < $1.row }, $0.fonts, $0.unrendered) }
        defer { if let inputs { do { try inputs.save() } catch { say("goldens: \(GoldenInputs.fileName) not written: \(describe(error))") } } }
        // Reading and hashing every font is only needed to record the environment or to
        // explain failures.
        let current = {
            try GoldenEnvironment.current(version: version, libraries: LibraryVersions.all, fontFiles: Array(fonts)) { try Posix.readFile($0, as: "font", limit: Int.max) }
        }
        let errors = results.filter { $0.status == .error }.count
        if let update = settings.update, update.writes(.changed) || results.allSatisfy({ $0.status != .changed }) {
            return try record(results, update: update, environment: try current(), errors: errors)
        }
        if let update = settings.update { _ = try record(results, update: update, environment: nil, errors: errors) }
        let failing = results.filter { $0.status == .changed || ($0.status == .new && settings.update == nil) }
        if let candidates = settings.candidates {
            for result in failing {
                guard let bytes = result.actual else { continue }
                try OutputFile.write(bytes, to: try BatchManifest.outputPath(result.name, in: candidates), confinedTo: candidates)
            }
            if !failing.isEmpty { say("goldens: \(failing.count) candidate goldens in \(candidates)") }
        }
        let changes = failing.isEmpty ? [] : environmentChanges(try current())
        if let dir = settings.htmlReport {
            try Posix.makeFolder(dir)
            try Posix.makeFolders(dir + "/images")
            for file in HTMLReport.files(results, environment: changes) { try OutputFile.write(file.bytes, to: dir + "/" + file.path) }
        }
        if let junit = settings.junit {
            try OutputFile.write(Array(JUnitReport.xml(results, suite: "hlrender goldens", seconds: seconds).utf8), to: junit)
        }
        // In the words every golden report uses (an error is a card that could not be rendered).
        var line = "goldens: " + GoldenStatus.summary(results.map(\.status))
        if unrendered > 0 { line += " (\(unrendered) not rendered again: inputs unchanged)" }
        if !changes.isEmpty { line += "; changed since recorded: " + changes.joined(separator: "; ") }
        for result in results.filter({ $0.status.fails }).prefix(20) {
            say("\(result.status.rawValue): \(result.name) (row \(result.row)): \(result.message)")
        }
        say(line)
        return errors > 0 ? .notRendered : failing.isEmpty ? .passed : .failed
    }

    /// --update: writes the cards whose golden is missing (and with `changed`, those that
    /// differ), and the environment when every card now has its golden.
    private func record(_ results: [GoldenResult], update: BaselineUpdate, environment: GoldenEnvironment?, errors: Int) throws -> Verdict {
        var added = 0, changed = 0
        for result in results where result.status == .new || (result.status == .changed && update.writes(.changed)) {
            guard let bytes = result.actual else { continue }
            try writeGolden(result.name, bytes)
            if result.status == .new { added += 1 } else { changed += 1 }
        }
        // Goldens recorded before layouts were kept get theirs once.
        for result in results where !result.status.fails {
            let path = try BatchManifest.outputPath(result.name, in: folder)
            if Posix.kind(LayoutExplanation.fileName(forGolden: path)) == .missing { try writeLayout(of: result.name, beside: path) }
        }
        try Posix.makeFolders(folder)
        if let environment {
            try OutputFile.write(Array((environment.json.serialized() + "\n").utf8), to: folder + "/" + GoldenEnvironment.fileName)
        }
        say("goldens: recorded \(added + changed) (\(added) new, \(changed) changed), \(results.count - added - changed - errors) unchanged"
            + (errors > 0 ? ", \(errors) not rendered" : "") + (environment != nil ? "; \(GoldenEnvironment.fileName) written" : ""))
        return errors > 0 ? .notRendered : .passed
    }

    /// The failing cards a review can approve (changed or new), in row order.
    package func reviewable() -> [GoldenResult] {
        state.withLock { $0.results }.filter { ($0.status == .changed || $0.status == .new) && $0.actual != nil }.sorted { $0.row < $1.row }
    }

    /// Approves one card of `reviewable()`: its render becomes the golden, as `--update` writes
    /// it (with its layout and its inputs record).
    package func approve(_ result: GoldenResult) throws {
        guard let bytes = result.actual else { return }
        try writeGolden(result.name, bytes)
        try inputs?.save()
    }

    /// A card's new golden, its spec and layout beside it, and its inputs record: what
    /// `--update` and an approval write alike.
    private func writeGolden(_ name: String, _ bytes: [UInt8]) throws {
        let path = try BatchManifest.outputPath(name, in: folder)
        try OutputFile.write(bytes, to: path, confinedTo: folder)
        try writeLayout(of: name, beside: path)
        inputs?.recorded(name)
    }

    /// The card's spec and layout beside its golden (`NAME.layout.json`), when it was rendered.
    private func writeLayout(of name: String, beside path: String) throws {
        guard let layout = layouts.withLock({ $0[name] }) else { return }
        try OutputFile.write(Array((layout.serialized() + "\n").utf8), to: LayoutExplanation.fileName(forGolden: path), confinedTo: folder)
    }

    /// What differs from the recorded environment (nothing when none was recorded).
    private func environmentChanges(_ current: GoldenEnvironment) -> [String] {
        let path = folder + "/" + GoldenEnvironment.fileName
        guard Posix.kind(path) == .regular, let bytes = try? Posix.readFile(path, as: "environment", limit: 1 << 20),
              let json = try? JSONValue.parse(bytes), let recorded = GoldenEnvironment(json: json) else { return [] }
        return current.differences(from: recorded)
    }

    /// `base` (the run's options) with a card's "compare" object on top.
    package static func tolerance(_ base: GoldenTolerance, card compare: JSONValue?) throws -> GoldenTolerance {
        var tolerance = base
        guard case let .object(members)? = compare else { return tolerance }
        for (key, value) in members {
            do {
                try tolerance.set(key, .json(value))
            } catch let error as OptionError {
                throw CardError("compare.\(key)", error.message)
            }
        }
        return tolerance
    }
}
