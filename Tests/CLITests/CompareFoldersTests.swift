import Codecs
import Render
import Support
import Foundation
import TestSupport
import Testing

/// `hlrender compare EXPECTED_DIR ACTUAL_DIR`: statuses, reports, baselines and config files.
@Suite struct CompareFoldersTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ image: RGBAImage, _ name: String) throws {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(try PNGCodec.encode(image)).write(to: url)
    }

    static func card(_ fill: (UInt8, UInt8, UInt8), block: (Int, Int)? = nil) -> RGBAImage {
        var image = RGBAImage(width: 120, height: 80, fill: (fill.0, fill.1, fill.2, 255))
        if let block { for x in block.0..<(block.0 + 20) { for y in block.1..<(block.1 + 20) { image[x, y] = (250, 250, 250, 255) } } }
        return image
    }

    /// e/ and a/: same, moved (shifted), recoloured, new and missing files.
    func trees() throws {
        try write(Self.card((20, 160, 40)), "e/same.png")
        try write(Self.card((20, 160, 40)), "a/same.png")
        try write(Self.card((20, 160, 40), block: (10, 10)), "e/ui/moved.png")
        try write(Self.card((20, 160, 40), block: (14, 12)), "a/ui/moved.png")
        try write(Self.card((20, 160, 40)), "e/ui/colour.png")
        try write(Self.card((20, 40, 200)), "a/ui/colour.png")
        try write(Self.card((20, 160, 40)), "a/new.png")
        try write(Self.card((20, 160, 40)), "e/gone.png")
    }

    func compare(_ extra: [String]) throws -> CLIResult {
        try CLI.run(["compare", path("e"), path("a"), "--quiet"] + extra)
    }

    @Test func foldersReportEveryFileWithWhy() throws {
        try trees()
        let result = try compare(["--json", "--junit", path("junit.xml"), "--summary-md", path("out/summary.md"), "--html-report", path("report")])
        #expect(result.status == 1, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        #expect(json["counts"] as? [String: Int] == ["same": 1, "within": 0, "changed": 2, "new": 1, "missing": 1, "error": 0])
        #expect((json["metric_version"] as? String)?.hasPrefix("pixelmatch-7-yiq") == true)
        let files = Dictionary(uniqueKeysWithValues: (json["files"] as! [[String: Any]]).map { ($0["path"] as! String, $0) })
        #expect(files["ui/moved.png"]?["why"] as? String == "shifted")
        #expect(files["ui/moved.png"]?["shift"] as? [String: Int] == ["dx": 4, "dy": 2])
        #expect(files["ui/colour.png"]?["why"] as? String == "colour")
        #expect(files["new.png"]?["status"] as? String == "new" && files["gone.png"]?["status"] as? String == "missing")
        let junit = try String(contentsOfFile: path("junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"tests="5""#) && junit.contains(#"name="ui/moved.png""#))
        let summary = try String(contentsOfFile: path("out/summary.md"), encoding: .utf8)
        #expect(summary.contains("content shifted by (4, 2)") && summary.contains("colour only"))
        // Thumbnails are linked relative to the summary, and exist there.
        let links = summary.components(separatedBy: "](").dropFirst().map { String($0.prefix { $0 != ")" }) }
        #expect(links.contains("../report/index.html"))
        let pictures = links.filter { $0.hasSuffix(".png") }
        #expect(pictures.count == 2)
        for link in pictures { #expect(FileManager.default.fileExists(atPath: path("out/" + link)), "\(link)") }
        #expect(FileManager.default.fileExists(atPath: path("report/index.html")))
    }

    /// Issue 51: the command said "1 changed, 1 new, 1 missing" while its HTML report said
    /// "2 failed, 1 missing", calling the new file missing and the missing one failed; lines
    /// repeated their status. Every output now uses the same words for the same files.
    @Test func everyOutputUsesTheSameWords() throws {
        try trees()
        let result = try compare(["--junit", path("junit.xml"), "--summary-md", path("summary.md"), "--html-report", path("report")])
        let line = String(decoding: result.stdout, as: UTF8.self)
        #expect(line.contains("5 files: 1 same, 2 changed, 1 new, 1 missing"), "\(line)")
        #expect(line.contains("new: new.png: not in the expected folder") && line.contains("missing: gone.png: not in the actual folder"), "\(line)")
        #expect(!line.contains("missing: gone.png: missing") && !line.contains("new: new.png: new"), "\(line)")
        let html = try String(contentsOfFile: path("report/index.html"), encoding: .utf8)
        for words in ["1 same", "2 changed", "1 new", "1 missing", "0 error"] { #expect(html.contains(">\(words)<"), "\(words)") }
        #expect(!html.contains("failed") && !html.contains("passed"))
        let junit = try String(contentsOfFile: path("junit.xml"), encoding: .utf8)
        #expect(junit.contains(#"type="new""#) && junit.contains(#"type="missing""#) && junit.contains(#"type="changed""#), "\(junit)")
        let summary = try String(contentsOfFile: path("summary.md"), encoding: .utf8)
        #expect(summary.contains("| same | within | changed | new | missing | error |") && summary.contains("| 1 | 0 | 2 | 1 | 1 | 0 |"), "\(summary)")
    }

    @Test func updateChangedRewritesOnlyFailingFiles() throws {
        try trees()
        let sameBefore = try FileManager.default.attributesOfItem(atPath: path("e/same.png"))[.modificationDate] as! Date
        Thread.sleep(forTimeInterval: 0.02)
        let result = try compare(["--update", "changed"])
        // gone.png has no actual image: it stays, and still fails.
        #expect(result.status == 1 && result.stderr.contains("updated") && String(decoding: result.stdout, as: UTF8.self).contains("missing: gone.png"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("e/ui/colour.png"))) == Data(contentsOf: URL(fileURLWithPath: path("a/ui/colour.png"))))
        #expect(FileManager.default.fileExists(atPath: path("e/new.png")))
        let sameAfter = try FileManager.default.attributesOfItem(atPath: path("e/same.png"))[.modificationDate] as! Date
        #expect(sameAfter == sameBefore)
        try FileManager.default.removeItem(atPath: path("e/gone.png"))
        #expect(try compare([]).status == 0)
    }

    @Test func candidatesAreWrittenAndTheRunStillFails() throws {
        try trees()
        let before = try Data(contentsOf: URL(fileURLWithPath: path("e/ui/colour.png")))
        let result = try compare(["--candidates", path("candidates")])
        #expect(result.status == 1)
        #expect(FileManager.default.fileExists(atPath: path("candidates/ui/colour.png")) && FileManager.default.fileExists(atPath: path("candidates/new.png")))
        #expect(!FileManager.default.fileExists(atPath: path("candidates/same.png")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("e/ui/colour.png"))) == before)
    }

    @Test func goldensJSONInTheExpectedFolderSetsPerGlobOptions() throws {
        try trees()
        try FileManager.default.removeItem(atPath: path("a/new.png"))
        try FileManager.default.removeItem(atPath: path("e/gone.png"))
        try Data(#"{"rules": [{"files": "ui/**", "max-diff-ratio": 1}]}"#.utf8).write(to: URL(fileURLWithPath: path("e/goldens.json")))
        let result = try compare([])
        #expect(result.status == 0 && String(decoding: result.stdout, as: UTF8.self).contains("1 same, 2 within"), "\(String(decoding: result.stdout, as: UTF8.self))")
        try Data(#"{"rules": [{"files": "ui/**", "ignore": "0,0,120,80"}]}"#.utf8).write(to: URL(fileURLWithPath: path("e/goldens.json")))
        #expect(try compare([]).status == 0)
    }

    @Test(arguments: [
        (#"{"rules": [{"files": "*", "max-diff-pixel": 3}]}"#, "rules[0].max-diff-pixel: is not a comparison option"),
        (#"{"threshold": "high"}"#, "threshold:"),
    ])
    func badConfigIsOneLine(config: String, message: String) throws {
        try trees()
        try Data(config.utf8).write(to: URL(fileURLWithPath: path("goldens.json")))
        let result = try compare(["--config", path("goldens.json")])
        #expect(result.status == 3 && result.stderr.contains(message) && result.stderr.contains("goldens.json"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aFolderAndAFileAreRefused() throws {
        try trees()
        let result = try CLI.run(["compare", path("e"), path("a/same.png")])
        #expect(result.status == 3 && result.stderr.contains("two files or two folders"))
        #expect(try CLI.run(["compare", path("e/same.png"), path("a/same.png"), "--html-report", path("r")]).status == 3)
    }

    @Test func jpegRendersCompareInFolders() throws {
        for side in ["e", "a"] {
            try FileManager.default.createDirectory(atPath: path(side), withIntermediateDirectories: true)
            let render = try CLI.run(["render", "--text", "Golden", "--format", "jpg", "-o", path("\(side)/t.jpg")])
            #expect(render.status == 0, "\(render.stderr)")
        }
        let result = try compare(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains(#""same": 1"#))
    }

    /// The folder report in a real browser: the changed file's expected (green) and actual
    /// (blue) panels side by side, then the difference.
    @Test func reportShowsPanelsInChromium() throws {
        try write(Self.card((20, 160, 40)), "e/x.png")
        try write(Self.card((20, 40, 200)), "a/x.png")
        #expect(try compare(["--html-report", path("report")]).status == 1)
        let shot = path("shot.png")
        #expect(try chromiumScreenshot(of: path("report/index.html"), to: shot, home: dir.path) == 0)
        let image = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: shot))))
        let isGreen = { (p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) in p.g > 130 && p.r < 60 && p.b < 80 }
        // The first row with a panel's width of green (text in the badges is green too).
        guard let top = (0..<(image.height / 2)).first(where: { y in (0..<image.width).count { isGreen(image[$0, y]) } >= 60 }) else {
            Issue.record("no expected panel in the upper half of the screenshot")
            return
        }
        let row = (0..<image.width).map { image[$0, top + 20] }
        let green = row.firstIndex(where: isGreen), blue = row.firstIndex { $0.b > 170 && $0.r < 60 && $0.g < 80 }
        #expect(green != nil && blue != nil && green! < blue!, "green \(String(describing: green)), blue \(String(describing: blue))")
    }
}

/// `compare a.pdf b.pdf`: the fixtures of GoldensTests (typst, 100 pages).
@Suite struct ComparePDFTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("GoldensTests/Fixtures/pdf")

    @Test func changedPagesAreReportedWithTheirText() throws {
        let dir = try CLI.scratchFolder()
        let e = Self.fixtures.appendingPathComponent("expected.pdf").path, a = Self.fixtures.appendingPathComponent("actual.pdf").path
        let report = dir.appendingPathComponent("report").path
        let result = try CLI.run(["compare", e, a, "--html-report", report, "--dpi", "50"])
        let out = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(out.contains("page 37:") && out.contains("[-dog-] {+cat+}") && out.contains("page 12:") && out.contains("moved https://example.com/page/12")
                && out.contains("page 101: new: not in the expected document") && out.contains("pages: 100 expected, 101 actual; 98 same, 2 changed, 1 new"), "\(out)")
        let html = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
        #expect(html.contains("page 37") && html.contains("[-dog-] {+cat+}") && html.contains("images/37-difference.png"))
        #expect(FileManager.default.fileExists(atPath: report + "/images/37-expected.png"))
        #expect(try CLI.run(["compare", e, e]).status == 0)
        let json = try CLI.run(["compare", e, a, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout)) as! [String: Any]
        #expect(object["actual_pages"] as? Int == 101 && (object["pages"] as? [Any])?.count == 3)
    }

    @Test func aBrokenPDFIsOneLine() throws {
        let dir = try CLI.scratchFolder()
        let broken = dir.appendingPathComponent("broken.pdf")
        try Data("%PDF-1.7\nnot really".utf8).write(to: broken)
        let result = try CLI.run(["compare", Self.fixtures.appendingPathComponent("expected.pdf").path, broken.path])
        #expect(result.status == 3 && result.stderr.contains("broken.pdf") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
