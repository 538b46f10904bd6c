import Codecs
import Batch
import Card
import Foundation
import Goldens
import Render
import Support
import Synchronization
import TestSupport
import Testing
import Typeset

/// The batch library called directly, as the CLI's `batch` calls it: rows from a template and
/// CSV rendered on several threads, written under the output folder, checked against goldens,
/// re-recorded only where they differ.
@Suite struct BatchLibraryTests {
    static let template = JSONValue.members([
        ("size", .string("200x80")), ("padding", .number(8)), ("background", .string("{{bg}}")),
        ("blocks", .array([.members([("type", .string("text")), ("text", .string("{{title}}")), ("size", .number(24)),
                                     ("color", .string("white"))])])),
    ])

    let folder: URL
    let engine: Engine

    init() throws {
        folder = try CLI.scratchFolder()
        engine = Engine(world: World(fonts: try FontContext(library: Fixtures.library)) { _ in throw CardError("", "no files") })
    }

    func rows(_ csv: String) throws -> [BatchRow] {
        try BatchManifest.template(Self.template, data: Array(csv.utf8), dataName: "rows.csv", pattern: "{{id}}.png")
    }

    /// Runs the rows with a golden suite over `goldens/`; the outcomes by output name.
    func run(_ rows: [BatchRow], update: Bool, shard: String? = nil) throws -> (GoldenSuite.Verdict, [String: BatchRun.Outcome], [String]) {
        var settings = BatchRun.Settings()
        if let shard { try BatchRun.Settings.options.named("shard")!.apply(.text(shard), to: &settings) }
        settings.outDir = folder.appendingPathComponent("out").path
        settings.jobs = 2
        var suiteSettings = GoldenSuite.Settings()
        suiteSettings.update = update ? .changed : nil
        let said = Mutex<[String]>([])
        let suite = GoldenSuite(settings: suiteSettings, folder: folder.appendingPathComponent("goldens").path,
                                tolerance: GoldenTolerance(), maxPixels: 1_000_000, inputLimit: 1 << 20,
                                describe: { "\($0)" }, say: { line in said.withLock { $0.append(line) } })
        let outcomes = Mutex<[String: BatchRun.Outcome]>([:])
        BatchRun(settings: settings, engine: engine, folder: folder.path, goldens: suite, describe: { "\($0)" })
            .run(rows) { _, outcome, _ in outcomes.withLock { $0[outcome.output] = outcome } }
        let verdict = try suite.finish(version: "test", seconds: 0)
        return (verdict, outcomes.withLock { $0 }, said.withLock { $0 })
    }

    @Test func rowsRenderAndGoldensAreRecordedOnlyWhereTheyDiffer() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = "id,title,bg\na,Alpha,#1E3C72\nb,Beta,#7B1FA2\nc,Gamma,#00796B\n"
        let first = try run(try rows(csv), update: false)
        #expect(first.0 == .failed, "\(first.2)")  // no goldens yet
        #expect(first.1.count == 3 && first.1.values.allSatisfy { if case .rendered = $0.status { true } else { false } })
        for name in ["a", "b", "c"] {
            let png = try [UInt8](Data(contentsOf: folder.appendingPathComponent("out/\(name).png")))
            #expect(PNGCodec.dimensions(png).map { $0 == (200, 80) } == true)
        }
        #expect(try run(try rows(csv), update: true).0 == .passed)
        let golden = folder.appendingPathComponent("goldens/a.png").path
        let recorded = try FileManager.default.attributesOfItem(atPath: golden)[.modificationDate] as! Date
        #expect(try run(try rows(csv), update: false).0 == .passed)

        // One row changes: the suite fails on it alone; an update rewrites only its golden.
        let changed = csv.replacingOccurrences(of: "Gamma", with: "Gamma changed")
        let failing = try run(try rows(changed), update: false)
        #expect(failing.0 == .failed)
        #expect(failing.2.contains { $0.contains("c.png") }, "\(failing.2)")
        #expect(!failing.2.contains { $0.contains("a.png") || $0.contains("b.png") }, "\(failing.2)")
        #expect(try run(try rows(changed), update: true).0 == .passed)
        #expect(try FileManager.default.attributesOfItem(atPath: golden)[.modificationDate] as! Date == recorded)
    }

    @Test func aBrokenRowFailsAloneWithItsLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = try rows("id,title,bg\na,Alpha,#1E3C72\nb,Beta,not-a-colour\n")
        let (_, outcomes, _) = try run(rows, update: true)
        guard case .rendered = outcomes["a.png"]?.status else { Issue.record("row a did not render"); return }
        guard case let .failed(message)? = outcomes["b.png"]?.status else { Issue.record("row b rendered"); return }
        #expect(message.contains("background"), "\(message)")
    }

    @Test func aShardRendersItsRowsOnly() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = "id,title,bg\na,A,#000000\nb,B,#000000\nc,C,#000000\nd,D,#000000\ne,E,#000000\n"
        let (_, outcomes, _) = try run(try rows(csv), update: true, shard: "1/2")
        #expect(Set(outcomes.keys) == ["b.png", "d.png"])
        var settings = BatchRun.Settings()
        for bad in ["2/2", "1/0", "x", "1/2/3", "-1/2"] {
            #expect(throws: OptionError.self) { try BatchRun.Settings.options.named("shard")!.apply(.text(bad), to: &settings) }
        }
    }
}
