import Foundation
import TestSupport
import Testing
import Support

/// Issue 51's first fixes, each failing on f727c2f: `--update` alone was refused ("Missing
/// value"), and `--metric ssim --json` printed no `ssim` for identical images.
@Suite struct GoldenReviewTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func png(_ text: String, _ name: String) throws {
        let result = try CLI.run(["render", "--text", text, "--size", "16", "-o", path(name)])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func updateAloneRecordsWhateverDoesNotPass() throws {
        for folder in ["expected", "actual"] { try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: true) }
        try png("same", "expected/same.png"); try png("same", "actual/same.png")
        try png("old", "expected/changed.png"); try png("new", "actual/changed.png")
        try png("fresh", "actual/new.png")
        let before = try Data(contentsOf: URL(fileURLWithPath: path("expected/same.png")))
        // Bare, before the positionals and after them.
        for arguments in [["compare", "--update", path("expected"), path("actual")], ["compare", path("expected"), path("actual"), "--update"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr) \(String(decoding: result.stdout, as: UTF8.self))")
        }
        for name in ["changed", "new"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path("expected/\(name).png"))) == Data(contentsOf: URL(fileURLWithPath: path("actual/\(name).png"))))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("expected/same.png"))) == before)
        // The values still work, and a value that is not one is a positional, not the update's.
        try png("newer", "actual/changed.png")
        #expect(try CLI.run(["compare", path("expected"), path("actual"), "--update", "missing"]).status == 1)
        #expect(try CLI.run(["compare", path("expected"), path("actual"), "--update=all"]).status == 0)
        let refused = try CLI.run(["compare", path("expected"), path("actual"), "--update=sometimes"])
        #expect(refused.status == 3 && refused.stderr.contains("update"), "\(refused.stderr)")
        let help = try CLI.run(["compare", "--help"])
        #expect(String(decoding: help.stdout, as: UTF8.self).contains("--update [<changed|missing|all>]"))
    }

    @Test func ssimIsReportedForIdenticalImages() throws {
        try png("same", "a.png")
        for other in ["a.png", "b.png"] {
            if other == "b.png" { try FileManager.default.copyItem(atPath: path("a.png"), toPath: path("b.png")) }
            let result = try CLI.run(["compare", path("a.png"), path(other), "--metric", "ssim", "--json"])
            #expect(result.status == 0)
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
            #expect(json?["ssim"] as? Double == 1, "\(String(decoding: result.stdout, as: UTF8.self))")
        }
    }
    /// `compare --review` in real headless Chromium: the keyboard approves and rejects, the
    /// zoom and the slider act, "approve all new" approves the new file, Done ends it; the
    /// approved baselines are the actual files, the others untouched.
    @Test func reviewInTheBrowserWritesTheApprovedBaselines() throws {
        for folder in ["expected", "actual"] { try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: true) }
        // One canvas size: each changed file gets its difference image.
        let card = { (text: String, name: String) in
            let result = try CLI.run(["render", "--text", text, "--size", "16", "--canvas", "200x80", "--margin", "8", "-o", self.path(name)])
            #expect(result.status == 0, "\(result.stderr)")
        }
        for (name, old, new) in [("a", "alpha", "alpha!"), ("b", "beta", "beta!"), ("c", "gamma", "gamma!"), ("e", "same", "same")] {
            try card(old, "expected/\(name).png")
            try card(new, "actual/\(name).png")
        }
        try card("delta", "actual/d.png")
        let read = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: self.path(name))) }
        let before = try ["a", "b", "c"].map { try read("expected/\($0).png") }
        let script = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/review_in_chromium.py").path
        let run = try runTool("/usr/bin/python3", [script, CLI.binary, path("expected"), path("actual")],
                              environment: ["HOME": dir.path, "PATH": "/usr/bin:/bin", "HLRENDER_FONT_DIR": Fixtures.fonts])
        #expect(run.status == 0, "\(run.output)")
        let report = try JSONValue.parse(Array(run.output.utf8))
        #expect(report["decisions"] == .object([("0", .string("approved")), ("1", .string("rejected")), ("2", .string("")), ("3", .string("approved"))]),
                "\(run.output)")
        #expect(report["zoomed"] == .bool(true) && report["images"] == .bool(true), "\(run.output)")
        #expect(report["slider"] == .string("inset(0px 0px 0px 20%)"), "\(run.output)")
        // Not every failing file approved: exit 1, and the summary says so.
        #expect(report["status"] == .number(1), "\(run.output)")
        #expect(report["stdout"].map { "\($0)" }?.contains("review: 2 approved, 1 rejected, 1 undecided") == true, "\(run.output)")
        #expect(try read("expected/a.png") == read("actual/a.png") && read("expected/d.png") == read("actual/d.png"))
        #expect(try read("expected/b.png") == before[1] && read("expected/c.png") == before[2])
    }
}
