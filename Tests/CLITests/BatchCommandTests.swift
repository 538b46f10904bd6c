import Codecs
import Render
import Compare
import Foundation
import Glibc
import TestSupport
import Testing

private let template = #"""
{"size": "320x240", "padding": 16, "background": {"gradient": {"stops": ["#833AB4", "#FCB045"]}}, "color": "white",
 "blocks": [{"type": "text", "text": "{{title}}", "size": 28, "align": "center", "anchor": "top"},
            {"type": "text", "text": "{{note}}", "size": 18, "highlight": "#000000AA", "anchor": "bottom"}]}
"""#

private func files(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
}

private func reportLines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
}

@Suite struct BatchCommandTests {
    func setUp(rows: Int, extraRow: String? = nil) throws -> URL {
        let dir = try CLI.scratchFolder()
        try Data(template.utf8).write(to: dir.appendingPathComponent("card.json"))
        var csv = "id,title,note\n"
        for i in 0..<rows { csv += "c\(i),\"Card \(i), \"\"quoted\"\"\",\"line one\nline two\"\n" }
        if let extraRow { csv += extraRow + "\n" }
        try Data(csv.utf8).write(to: dir.appendingPathComponent("rows.csv"))
        return dir
    }

    func batch(_ dir: URL, _ extra: [String]) throws -> CLIResult {
        try CLI.run(["batch", "--template", dir.appendingPathComponent("card.json").path,
                     "--data", dir.appendingPathComponent("rows.csv").path, "--output", "{{id}}.png",
                     "--out-dir", dir.appendingPathComponent("out").path, "--quiet"] + extra)
    }

    @Test func templateWithCSVRows() throws {
        let dir = try setUp(rows: 4)
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("r.jsonl").path
        let result = try batch(dir, ["--report", report])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendered 4, failed 0 in"), "\(result.stderr)")
        #expect(try files(dir.appendingPathComponent("out")) == ["c0.png", "c1.png", "c2.png", "c3.png"])
        let lines = try reportLines(report)
        #expect(lines.count == 4 && lines.allSatisfy { $0["status"] as? String == "ok" && ($0["bytes"] as! Int) > 0 })
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: dir.appendingPathComponent("out/c2.png"))))
        #expect(image.width == 320 && image.height == 240)
    }

    /// --pdf: every card on its own page, in row order whatever order the workers finish in.
    @Test func proofSheetInRowOrder() throws {
        let dir = try setUp(rows: 12)
        defer { try? FileManager.default.removeItem(at: dir) }
        let proofs = dir.appendingPathComponent("proofs.pdf").path
        let result = try CLI.run(["batch", "--template", dir.appendingPathComponent("card.json").path,
                                  "--data", dir.appendingPathComponent("rows.csv").path, "--output", "{{id}}.png",
                                  "--pdf", proofs, "--jobs", "3", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try qpdfCheck(proofs))
        let info = try runTool("/usr/bin/pdfinfo", [proofs]).output
        #expect(info.contains("Pages:           12") && info.contains("Page size:       320 x 240 pts"), "\(info)")
        for page in 1...12 {
            let text = try runTool("/usr/bin/pdftotext", ["-f", "\(page)", "-l", "\(page)", proofs, "-"]).output
            #expect(text.contains("Card \(page - 1), \"quoted\""), "page \(page): \(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        // card takes several specs with --pdf.
        let spec = dir.appendingPathComponent("one.json")
        try Data(#"{"size": "300x200", "padding": 8, "blocks": [{"type": "text", "text": "Proof {{n}}", "size": 24}]}"#.utf8).write(to: spec)
        let cards = dir.appendingPathComponent("cards.pdf").path
        let card = try CLI.run(["card", spec.path, spec.path, "--var", "n=7", "--pdf", cards])
        #expect(card.status == 0, "\(card.stderr)")
        #expect(try runTool("/usr/bin/pdfinfo", [cards]).output.contains("Pages:           2"))
        #expect(try CLI.run(["card", spec.path, spec.path, "-o", cards]).stderr.contains("add --pdf"))
    }

    @Test func jsonlManifest() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = (0..<3).map { #"{"size": "200x100", "padding": 8, "output": "m\#($0).webp", "blocks": [{"type": "text", "text": "No. \#($0)"}]}"# }
            .joined(separator: "\n") + "\n"
        try Data(manifest.utf8).write(to: dir.appendingPathComponent("cards.jsonl"))
        let result = try CLI.run(["batch", dir.appendingPathComponent("cards.jsonl").path, "--out-dir",
                                  dir.appendingPathComponent("out").path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try files(dir.appendingPathComponent("out")) == ["m0.webp", "m1.webp", "m2.webp"])
    }

    @Test func oneBadRowDoesNotStopTheOthers() throws {
        // JSONL rows: the fourth has no "note", which the template uses.
        let dir = try setUp(rows: 0)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = (0..<3).map { #"{"id": "c\#($0)", "title": "Card \#($0)", "note": "ok"}"# } + [#"{"id": "c9", "title": "no note"}"#]
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("rows.jsonl"))
        let report = dir.appendingPathComponent("r.jsonl").path
        let result = try CLI.run(["batch", "--template", dir.appendingPathComponent("card.json").path,
                                  "--data", dir.appendingPathComponent("rows.jsonl").path, "--output", "{{id}}.png",
                                  "--out-dir", dir.appendingPathComponent("out").path, "--quiet", "--report", report])
        #expect(result.status == 3)
        #expect(result.stderr.contains("row 4: blocks[1].text: variable {{note}} has no value (the row has no column or key of that name)"), "\(result.stderr)")
        #expect(result.stderr.contains("rendered 3, failed 1"))
        #expect(try files(dir.appendingPathComponent("out")) == ["c0.png", "c1.png", "c2.png"])
        let failed = try reportLines(report).filter { $0["status"] as? String == "error" }
        #expect(failed.count == 1 && failed[0]["row"] as? Int == 4)
    }

    /// A malformed data line is a failed row with its line number (CSV and JSONL alike); the
    /// rows before and after it render.
    @Test func aMalformedDataLineIsAFailedRow() throws {
        let dir = try setUp(rows: 2, extraRow: "short\nc8,\"Card 8\",fine\nc9,bad\"quote\",x\nc10,\"Card 10\",last")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("r.jsonl").path
        var result = try batch(dir, ["--report", report])
        #expect(result.status == 3)
        // Rows 1-2 take lines 2-5 (quoted line breaks); "short" is line 6.
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("hlrender: row 3: ") && $0.hasSuffix("rows.csv: line 6: 1 fields, but the header names 3") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("hlrender: row 5: ") && $0.contains("rows.csv: line 8: a quote inside an unquoted field") }, "\(lines)")
        #expect(result.stderr.contains("rendered 4, failed 2"), "\(result.stderr)")
        #expect(try files(dir.appendingPathComponent("out")) == ["c0.png", "c1.png", "c10.png", "c8.png"])
        // The report lists rows as they finish (two workers): compared as a set.
        #expect(try reportLines(report).filter { $0["status"] as? String == "error" }.map { $0["row"] as! Int }.sorted() == [3, 5])
        let jsonl = [#"{"id": "j0", "title": "a", "note": "b"}"#, #"{"id": "j1", "title": "#, "[1, 2]", #"{"id": "j3", "title": "c", "note": "d"}"#]
        try Data((jsonl.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("rows.jsonl"))
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("out"))
        result = try CLI.run(["batch", "--template", dir.appendingPathComponent("card.json").path,
                              "--data", dir.appendingPathComponent("rows.jsonl").path, "--output", "{{id}}.png",
                              "--out-dir", dir.appendingPathComponent("out").path, "--quiet"])
        let jsonlLines = result.stderr.split(separator: "\n").map(String.init)
        #expect(jsonlLines.contains { $0.hasPrefix("hlrender: row 2: ") && $0.contains("rows.jsonl: line 2: ") }, "\(jsonlLines)")
        #expect(jsonlLines.contains { $0.hasPrefix("hlrender: row 3: ") && $0.hasSuffix("rows.jsonl: line 3: a data row must be a JSON object of variables") },
                "\(jsonlLines)")
        #expect(try files(dir.appendingPathComponent("out")) == ["j0.png", "j3.png"])
    }

    @Test func outputsMayNotLeaveTheFolder() throws {
        let dir = try setUp(rows: 1, extraRow: "../escape,t,n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try batch(dir, [])
        #expect(result.status == 3 && result.stderr.contains("must be a relative file name inside the output folder"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("escape.png").path))
    }

    @Test func shardsSplitTheRowsWithoutOverlap() throws {
        let dir = try setUp(rows: 10)
        defer { try? FileManager.default.removeItem(at: dir) }
        var seen: [String] = []
        for k in 0..<3 {
            let out = dir.appendingPathComponent("out")
            try? FileManager.default.removeItem(at: out)
            #expect(try batch(dir, ["--shard", "\(k)/3"]).status == 0)
            seen += try files(out)
        }
        #expect(seen.sorted() == (0..<10).map { "c\($0).png" }.sorted())
        #expect(Set(seen).count == seen.count)
    }

    @Test func jobsDoNotChangeTheBytes() throws {
        let dir = try setUp(rows: 6)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A restricted block: its scrambled glyphs come from the batch seed and the row.
        let restricted = template.replacingOccurrences(of: #""size": 18, "highlight""#, with: #""size": 18, "visible-lines": 1, "highlight""#)
        try Data(restricted.utf8).write(to: dir.appendingPathComponent("card.json"))
        var outputs: [[Data]] = []
        for jobs in ["1", "2"] {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("out"))
            #expect(try batch(dir, ["--jobs", jobs, "--scramble-seed", "11"]).status == 0)
            outputs.append(try files(dir.appendingPathComponent("out")).map { try Data(contentsOf: dir.appendingPathComponent("out/\($0)")) })
        }
        #expect(outputs[0] == outputs[1])
    }

    /// Every row brings glyphs no card drew before, so one worker checks that new glyphs load
    /// while the other draws with the same font: the check must never touch the face Cairo is
    /// drawing with (it once did, and a batch like this crashed within a few dozen cards).
    @Test func freshGlyphsOnBothWorkersAtOnce() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(template.utf8).write(to: dir.appendingPathComponent("card.json"))
        // A deterministic walk over the CJK block: 30 characters a field, rarely repeated.
        var state: UInt64 = 7
        func character() -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return String(UnicodeScalar(0x4E00 + UInt32((state >> 33) % 3_000))!)
        }
        var csv = "id,title,note\n"
        for i in 0..<400 { csv += "c\(i),\((0..<30).map { _ in character() }.joined()),\((0..<30).map { _ in character() }.joined())\n" }
        try Data(csv.utf8).write(to: dir.appendingPathComponent("rows.csv"))
        let result = try batch(dir, ["--jobs", "2", "--no-system-fonts"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendered 400, failed 0"), "\(result.stderr)")
    }

    @Test func aKilledRunIsFinishedBySkipExisting() throws {
        let dir = try setUp(rows: 40)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["batch", "--template", dir.appendingPathComponent("card.json").path,
                             "--data", dir.appendingPathComponent("rows.csv").path, "--output", "{{id}}.png",
                             "--out-dir", out.path, "--quiet", "--jobs", "1", "--no-system-fonts"]
        process.environment = ["HLRENDER_TEST_WRITE_PAUSE_MS": "40"]
        try process.run()
        // Kill it outright midway (no chance to clean up).
        var waited = 0
        while waited < 400, ((try? files(out))?.filter { $0.hasSuffix(".png") }.count ?? 0) < 8 {
            usleep(20_000)
            waited += 1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = try files(out).filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") }
        #expect(before.count >= 8 && before.count < 40, "killed midway: \(before.count)")
        for name in before {  // whole files only
            #expect(throws: Never.self) { try PNGCodec.decode([UInt8](try Data(contentsOf: out.appendingPathComponent(name)))) }
        }
        let report = dir.appendingPathComponent("r.jsonl").path
        let rerun = try batch(dir, ["--skip-existing", "--report", report])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let lines = try reportLines(report)
        #expect(lines.filter { $0["status"] as? String == "skipped" }.count == before.count, "none rendered twice")
        #expect(lines.filter { $0["status"] as? String == "ok" }.count == 40 - before.count)
        #expect(try files(out).filter { !$0.hasPrefix(".") }.count == 40)
        #expect(try files(out).filter { $0.hasPrefix(".") }.isEmpty, "the next run removed the dead run's temporary file")
    }

    /// Links planted in the output folder (a file name, a sub-folder) do not redirect a batch's
    /// writes out of it; the rows that would go through them fail, the others are written.
    @Test func plantedLinksDoNotLeadOutOfTheOutputFolder() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out"), elsewhere = dir.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent("x.png").path, withDestinationPath: victim.path)
        try FileManager.default.createSymbolicLink(atPath: out.appendingPathComponent("sub").path, withDestinationPath: elsewhere.path)
        let lines = ["x.png", "sub/y.png", "sub/deeper/z.png", "ok.png"].map {
            #"{"output": "\#($0)", "size": "64x64", "padding": 4, "blocks": [{"type": "text", "text": "a", "size": 12}]}"#
        }
        let manifest = dir.appendingPathComponent("m.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: manifest)
        let result = try CLI.run(["batch", manifest.path, "--out-dir", out.path, "--quiet"])
        #expect(result.status != 0 && !result.signalled)
        #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "nothing written through the link")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("ok.png").path))
    }
}
