import Codecs
import Render
import Compare
import Foundation
import FoundationXML
import Support
import TestSupport
import Testing

private let card = #"""
{"size": "240x160", "padding": 12, "background": "{{bg}}", "color": "white",
 "blocks": [{"type": "text", "text": "{{title}}", "size": 24, "align": "center", "anchor": "top"},
            {"type": "text", "text": "{{note}}", "size": 14, "highlight": "#000000AA", "anchor": "bottom"}]}
"""#

/// A suite of cards from a template and CSV rows, checked against goldens.
@Suite struct GoldenSuiteTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func writeRows(_ rows: [(String, String, String, String)]) throws {
        try Data(card.utf8).write(to: dir.appendingPathComponent("card.json"))
        let csv = "id,title,note,bg\n" + rows.map { "\($0.0),\($0.1),\($0.2),\($0.3)" }.joined(separator: "\n") + "\n"
        try Data(csv.utf8).write(to: dir.appendingPathComponent("rows.csv"))
    }

    static let rows = [("a", "Alpha", "first note", "#1E3C72"), ("b", "Beta", "second note", "#7B1FA2"),
                       ("c", "Gamma", "third note", "#00796B"), ("d", "Delta", "fourth note", "#BF360C")]

    func suite(_ extra: [String], environment: [String: String] = [:]) throws -> CLIResult {
        let arguments = ["batch", "--template", path("card.json"), "--data", path("rows.csv"), "--output", "{{id}}.png",
                         "--expect-dir", path("goldens"), "--quiet"] + extra
        return try CLI.run(arguments, pinnedFonts: false, environment: environment)
    }

    func record() throws {
        try writeRows(Self.rows)
        let first = try suite([])
        #expect(first.status == 1 && first.stderr.contains("goldens: 4 new"), "\(first.stderr)")
        let recorded = try suite(["--update", "changed"])
        #expect(recorded.status == 0 && recorded.stderr.contains("recorded 4 (4 new, 0 changed), 0 unchanged"), "\(recorded.stderr)")
    }

    @Test func oneChangedCardFailsAloneAndUpdateFixesIt() throws {
        try record()
        let pass = try suite(["--junit", path("pass.xml")])
        #expect(pass.status == 0 && pass.stderr.contains("goldens: 4 same"), "\(pass.stderr)")
        var changed = Self.rows
        changed[2].1 = "Gamma changed"
        try writeRows(changed)
        let before = try FileManager.default.attributesOfItem(atPath: path("goldens/a.png"))[.modificationDate] as! Date
        let fail = try suite(["--junit", path("junit.xml"), "--html-report", path("report")])
        #expect(fail.status == 1, "\(fail.stderr)")
        #expect(fail.stderr.contains("goldens: 3 same, 1 changed"), "\(fail.stderr)")
        // The render line counts cards that did not render: none here, and it says so in words
        // that cannot be read against the goldens line. The three cards whose inputs are
        // those they passed with are not drawn again (IncrementalSuiteTests).
        #expect(fail.stderr.contains("rendered 1, skipped 3, not rendered 0 in"), "\(fail.stderr)")
        #expect(fail.stderr.contains("changed: c.png (row 3): "))
        // Said in the card's terms, from the spec and layout kept beside the golden.
        #expect(FileManager.default.fileExists(atPath: path("goldens/c.png.layout.json")))
        #expect(fail.stderr.contains(#"blocks[0]: text changed: +"changed""#), "\(fail.stderr)")
        // JUnit: four testcases, one failure with the numbers, well-formed XML.
        let xml = try String(contentsOfFile: path("junit.xml"), encoding: .utf8)
        let document = try XMLDocument(xmlString: xml)
        let cases = try document.nodes(forXPath: "/testsuites/testsuite/testcase")
        let failures = try document.nodes(forXPath: "//testcase/failure") as! [XMLElement]
        #expect(cases.count == 4 && failures.count == 1)
        #expect((failures.first?.parent as? XMLElement)?.attribute(forName: "name")?.stringValue == "c.png")
        #expect(failures.first?.attribute(forName: "message")?.stringValue?.contains("pixels differ") == true)
        #expect((try document.nodes(forXPath: "/testsuites/@failures").first?.stringValue) == "1")
        // Valid against the JUnit schema Jenkins' xunit plugin reads (GitLab and GitHub's
        // reporters read the same elements).
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/junit-10.xsd").path
        for report in ["junit.xml", "pass.xml"] {
            #expect(try runTool("/usr/bin/xmllint", ["--noout", "--schema", schema, path(report)]).status == 0, "\(report)")
        }
        // The report: the failure first, its three images written.
        let html = try String(contentsOfFile: path("report/index.html"), encoding: .utf8)
        let firstSection = html.range(of: "<section")!
        #expect(html[firstSection.lowerBound...].prefix(200).contains("c.png"))
        #expect(html.components(separatedBy: "<section").count == 2)
        #expect(!html.contains("http://") && !html.contains("https://"), "the report must work offline")
        for kind in ["expected", "actual", "difference"] {
            #expect(FileManager.default.fileExists(atPath: path("report/images/3-\(kind).png")))
        }
        // --update writes that file only.
        let update = try suite(["--update", "changed"])
        #expect(update.status == 0 && update.stderr.contains("recorded 1 (0 new, 1 changed), 3 unchanged"), "\(update.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: path("goldens/a.png"))[.modificationDate] as! Date
        #expect(before == after)
        #expect(try suite([]).status == 0)
    }

    /// A manifest line's "compare" object loosens the limits for that card only.
    /// An 860-byte golden of 1x200000 against a 240x160 card would be padded to 200000x160
    /// (and a 1080x1920 card to 2.57 GB): the check fails that card within the pixel limit.
    @Test func aHostileGoldenShapeFailsWithinThePixelLimit() throws {
        try record()
        try Data(try PNGCodec.encode(RGBAImage(width: 1, height: 200_000, fill: (0, 0, 0, 255))))
            .write(to: dir.appendingPathComponent("goldens/a.png"))
        let result = try suite(["--max-pixels", "1000000"])
        #expect(result.status == 1 && !result.signalled, "\(result.stderr)")
        #expect(result.stderr.contains("3 same, 1 changed"), "\(result.stderr)")
        // Told from the headers, as `compare` does: nothing padded to a 240x200000 canvas.
        #expect(result.stderr.contains("sizes differ: expected 1x200000, actual 240x160\n"),
                "\(result.stderr)")
    }

    @Test func perCardLimitsFromTheManifest() throws {
        let line = { (id: String, text: String, compare: String) in
            ##"{"size": "200x100", "padding": 8, "background": "#334455", "output": "\##(id).png", "blocks": [{"type": "text", "text": "\##(text)", "size": 20}]\##(compare)}"##
        }
        let manifest = path("cards.jsonl")
        let run = { (lines: [String], extra: [String]) throws -> CLIResult in
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: manifest))
            return try CLI.run(["batch", manifest, "--expect-dir", self.path("goldens"), "--quiet"] + extra, pinnedFonts: false)
        }
        #expect(try run([line("p", "one", ""), line("q", "two", "")], ["--update", "changed"]).status == 0)
        let loose = try run([line("p", "one!", #", "compare": {"max-diff-pixels": 100000}"#), line("q", "two", "")], [])
        #expect(loose.status == 0 && loose.stderr.contains("goldens: 1 same, 1 within"), "\(loose.stderr)")
        let strict = try run([line("p", "one!", ""), line("q", "two", "")], [])
        #expect(strict.status == 1 && strict.stderr.contains("changed: p.png"), "\(strict.stderr)")
        let bad = try run([line("p", "one", #", "compare": {"max-diff-pixels": -1}"#)], [])
        #expect(bad.status == 3 && bad.stderr.contains("compare.max-diff-pixels"), "\(bad.stderr)")
    }

    /// `batch --expect-dir --review`: the failing cards approved in headless Chromium become
    /// the goldens, and the suite then passes without rendering them again.
    @Test func batchReviewRecordsTheApprovedGoldens() throws {
        try record()
        var changed = Self.rows
        changed[1].1 = "Beta changed"
        changed[3].1 = "Delta changed"
        try writeRows(changed)
        let script = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/review_in_chromium.py").path
        let arguments = ["--approve-all", CLI.binary, "batch", "--template", path("card.json"), "--data", path("rows.csv"), "--output", "{{id}}.png",
                         "--expect-dir", path("goldens"), "--quiet", "--review"]
        let run = try runTool("/usr/bin/python3", [script] + arguments,
                              environment: ["HOME": dir.path, "PATH": "/usr/bin:/bin", "HLRENDER_FONT_DIR": Fixtures.fonts])
        let report = try JSONValue.parse(Array(run.output.utf8))
        #expect(report["decisions"] == .object([("0", .string("approved")), ("1", .string("approved"))]), "\(run.output)")
        #expect(report["status"] == .number(0), "\(run.output)")
        let after = try suite([])
        #expect(after.status == 0 && after.stderr.contains("goldens: 4 same") && after.stderr.contains("skipped 4"), "\(after.stderr)")
    }

    /// A suite of one card (a manifest of one line) against goldens/, with `extra` flags.
    func runOneCard(_ card: String, _ extra: [String]) throws -> CLIResult {
        let manifest = path("cards.jsonl")
        try Data((card + "\n").utf8).write(to: URL(fileURLWithPath: manifest))
        return try CLI.run(["batch", manifest, "--expect-dir", path("goldens"), "--quiet"] + extra, pinnedFonts: false)
    }

    /// `ignore` may name a node of the card: its box in the golden's layout and in this run's.
    @Test func anIgnoredNodeIsSkippedWhereverItIs() throws {
        let line = { (note: String, compare: String) in
            ##"{"size": "300x160", "padding": 12, "background": "#334455", "color": "white", "output": "n.png", "blocks": [{"type": "text", "text": "Title", "size": 28, "anchor": "top"}, {"type": "text", "text": "\##(note)", "size": 16, "anchor": "bottom"}]\##(compare)}"##
        }
        let run = runOneCard
        #expect(try run(line("a short note", ""), ["--update"]).status == 0)
        let changed = try run(line("a much longer note here", ""), [])
        #expect(changed.status == 1 && changed.stderr.contains("blocks[1]: text changed"), "\(changed.stderr)")
        let ignored = try run(line("a much longer note here", #", "compare": {"ignore": ["blocks[1]"]}"#), [])
        #expect(ignored.status == 0, "\(ignored.stderr)")
        // Not the title: a change there still fails.
        let title = try run(line("a short note", #", "compare": {"ignore": ["blocks[1]"]}"#).replacing("Title", with: "Other"), [])
        #expect(title.status == 1, "\(title.stderr)")
        let missing = try run(line("a short note", #", "compare": {"ignore": ["blocks[7]"]}"#), [])
        #expect(missing.status == 3 && missing.stderr.contains("'blocks[7]' is not a block or span"), "\(missing.stderr)")
        let bad = try run(line("a short note", #", "compare": {"ignore": ["blocks[x]"]}"#), [])
        #expect(bad.status == 3 && bad.stderr.contains("compare.ignore"), "\(bad.stderr)")
        // compare has no card to place a node in: refused, never dropped.
        let png = path("goldens/n.png")
        let plain = try CLI.run(["compare", png, png, "--ignore", "blocks[1]"])
        #expect(plain.status == 3 && plain.stderr.contains("names a node of a card"), "\(plain.stderr)")
    }

    /// A stack's child is a node too: named where it changed, and ignored by its path.
    @Test func aStacksChildIsANode() throws {
        let line = { (note: String, compare: String) in
            ##"{"size": "300x200", "padding": 12, "background": "#334455", "color": "white", "output": "s.png", "blocks": [{"type": "stack", "gap": 8, "align": "left", "anchor": "top-left", "blocks": [{"type": "text", "text": "A longer Title", "size": 28}, {"type": "text", "text": "\##(note)", "size": 16}]}]\##(compare)}"##
        }
        let run = runOneCard
        #expect(try run(line("a short note", ""), ["--update"]).status == 0)
        let changed = try run(line("a short mote", ""), [])
        #expect(changed.status == 1 && changed.stderr.contains(#"blocks[0].blocks[1]: text changed: -"note" +"mote""#), "\(changed.stderr)")
        let ignored = try run(line("a short mote", #", "compare": {"ignore": ["blocks[0].blocks[1]"]}"#), [])
        #expect(ignored.status == 0, "\(ignored.stderr)")
        let title = try run(line("a short note", #", "compare": {"ignore": ["blocks[0].blocks[1]"]}"#).replacing("Title", with: "Other"), [])
        #expect(title.status == 1 && title.stderr.contains("blocks[0].blocks[0]: "), "\(title.stderr)")
    }

    /// A user's Fontconfig settings and locale must not reach the pixels.
    @Test func hostileFontconfigAndLocaleGiveTheSameBytes() throws {
        try record()
        let conf = """
            <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>
            <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
            <match target="font"><edit name="hinting" mode="assign"><bool>true</bool></edit>
            <edit name="hintstyle" mode="assign"><const>hintfull</const></edit>
            <edit name="rgba" mode="assign"><const>rgb</const></edit>
            <edit name="antialias" mode="assign"><bool>true</bool></edit>
            <edit name="lcdfilter" mode="assign"><const>lcddefault</const></edit></match>
            <match target="pattern"><edit name="lang" mode="assign"><string>tr</string></edit></match>
            </fontconfig>
            """
        try Data(conf.utf8).write(to: dir.appendingPathComponent("fonts.conf"))
        let hostile = ["FONTCONFIG_FILE": path("fonts.conf"), "LC_ALL": "tr_TR.UTF-8", "LANG": "tr_TR.UTF-8"]
        let result = try suite(["--out-dir", path("hostile")], environment: hostile)
        #expect(result.status == 0 && result.stderr.contains("goldens: 4 same"), "\(result.stderr)")
        for id in ["a", "b", "c", "d"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path("hostile/\(id).png")))
                    == Data(contentsOf: URL(fileURLWithPath: path("goldens/\(id).png"))), "\(id).png")
        }
        // render, with the system's fonts allowed, too.
        let render = { (env: [String: String], out: String) throws -> Data in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["render", "--text", "Straße İstanbul ﬁne 1/2", "--font", "Noto Sans", "--size", "30",
                                 "--highlight", "#FFD23F", "--font-dir", Fixtures.fonts, "-o", out]
            var environment = ProcessInfo.processInfo.environment
            environment.merge(env) { $1 }
            process.environment = environment
            try process.run()
            process.waitUntilExit()
            return try Data(contentsOf: URL(fileURLWithPath: out))
        }
        #expect(try render([:], path("plain.png")) == render(hostile, path("hostile.png")))
    }

    /// The environment record, and a changed library named in the summary and the report.
    @Test func environmentRecordSaysWhatDrifted() throws {
        try record()
        let envPath = path("goldens/hlrender-env.json")
        let env = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: envPath))) as! [String: Any]
        let libraries = env["libraries"] as! [String: String]
        #expect(Set(libraries.keys) == ["Cairo", "pixman", "FreeType", "HarfBuzz", "Fontconfig", "ICU", "libpng"])
        #expect(libraries.values.allSatisfy { $0.first?.isNumber == true })
        let fonts = env["fonts"] as! [String: String]
        #expect(fonts.keys.contains("NotoSans-Regular.ttf") && fonts.values.allSatisfy { $0.count == 64 })
        #expect(env["hlrender"] as? String != nil)
        // Tamper: an old FreeType recorded; one card changed.
        let text = try String(contentsOfFile: envPath, encoding: .utf8)
        let tampered = text.replacingOccurrences(of: "\"FreeType\": \"\(libraries["FreeType"]!)\"", with: "\"FreeType\": \"2.10.4\"")
        #expect(tampered != text)
        try Data(tampered.utf8).write(to: URL(fileURLWithPath: envPath))
        var changed = Self.rows
        changed[0].2 = "a different note"
        try writeRows(changed)
        let result = try suite(["--html-report", path("report")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("FreeType 2.10.4 -> \(libraries["FreeType"]!): glyph rendering may differ"), "\(result.stderr)")
        #expect(try String(contentsOfFile: path("report/index.html"), encoding: .utf8).contains("FreeType 2.10.4 -&gt; "))
    }

    /// A real browser opens the report from the file system: the failure's expected, actual
    /// and difference panels are drawn side by side at the top.
    @Test func reportRendersInABrowser() throws {
        try writeRows([("x", "", "", "#00C000")])
        #expect(try suite(["--update", "changed"]).status == 0)
        try writeRows([("x", "", "", "#0000FF")])
        #expect(try suite(["--html-report", path("report")]).status == 1)
        let shot = path("shot.png")
        #expect(try chromiumScreenshot(of: path("report/index.html"), to: shot, home: dir.path) == 0)
        let image = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: shot))))
        // Along a row through the panels: the expected (green), then the actual (blue), then
        // the difference panel (pure red), side by side, in the upper half of the page.
        let isGreen = { (p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) in p.g > 150 && p.r < 60 && p.b < 60 }
        guard let top = (0..<(image.height / 2)).first(where: { y in (0..<image.width).contains { isGreen(image[$0, y]) } }) else {
            Issue.record("no expected panel in the upper half of the screenshot")
            return
        }
        let y = top + 30
        let row = (0..<image.width).map { image[$0, y] }
        let green = row.firstIndex(where: isGreen)
        let blue = row.firstIndex { $0.b > 200 && $0.r < 60 && $0.g < 60 }
        let red = row.firstIndex { $0.r > 240 && $0.g < 20 && $0.b < 20 }
        #expect(green != nil && blue != nil && red != nil, "panels not found on row \(y)")
        if let green, let blue, let red {
            #expect(green < blue && blue < red, "green \(green), blue \(blue), red \(red)")
            #expect(blue - green >= 150 && red - blue >= 150, "the panels must sit side by side")
        }
    }

    /// --update missing adds new goldens and leaves a differing one; --candidates writes it for
    /// review; a goldens.json rule in the golden folder decides per card.
    @Test func updateMissingCandidatesAndConfig() throws {
        try record()
        try writeRows(Self.rows.map { $0.0 == "b" ? ("b", "Beta!", $0.2, $0.3) : $0 } + [("e", "Epsilon", "fifth note", "#263238")])
        let before = try Data(contentsOf: URL(fileURLWithPath: path("goldens/b.png")))
        let result = try suite(["--update", "missing", "--candidates", path("candidates")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: path("goldens/e.png")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("goldens/b.png"))) == before)
        #expect(FileManager.default.fileExists(atPath: path("candidates/b.png")) && !FileManager.default.fileExists(atPath: path("candidates/a.png")))
        #expect(result.stderr.contains("changed: b.png"), "\(result.stderr)")
        try Data(#"{"rules": [{"files": "b.png", "max-diff-ratio": 1}]}"#.utf8).write(to: URL(fileURLWithPath: path("goldens/goldens.json")))
        let passing = try suite([])
        #expect(passing.status == 0, "\(passing.stderr)")
    }

    /// PDF cards are golden-tested too: pages through poppler, words, links.
    @Test func pdfCardsAreComparedAsDocuments() throws {
        try writeRows(Self.rows)
        let pdf = { (extra: [String]) in
            try CLI.run(["batch", "--template", self.path("card.json"), "--data", self.path("rows.csv"), "--output", "{{id}}.pdf",
                         "--expect-dir", self.path("pdf-goldens"), "--quiet"] + extra, pinnedFonts: false)
        }
        #expect(try pdf(["--update", "changed"]).status == 0)
        #expect(try pdf([]).status == 0)
        var changed = Self.rows
        changed[1].2 = "second word"
        try writeRows(changed)
        let failing = try pdf([])
        #expect(failing.status == 1 && failing.stderr.contains("changed: b.pdf") && failing.stderr.contains("1 changed"), "\(failing.stderr)")
    }
}

/// Issue 51: `batch --update` alone records what does not pass, as `--update changed` did.
@Suite struct BareUpdateSuiteTests {
    @Test func batchUpdateAloneRecordsNewAndChangedGoldens() throws {
        let suite = try GoldenSuiteTests()
        try suite.writeRows(GoldenSuiteTests.rows)
        let recorded = try suite.suite(["--update"])
        #expect(recorded.status == 0 && recorded.stderr.contains("recorded 4 (4 new, 0 changed), 0 unchanged"), "\(recorded.stderr)")
        var rows = GoldenSuiteTests.rows
        rows[1].1 = "Beta changed"
        try suite.writeRows(rows)
        let updated = try suite.suite(["--update"])
        #expect(updated.status == 0 && updated.stderr.contains("recorded 1 (0 new, 1 changed), 3 unchanged"), "\(updated.stderr)")
        #expect(try suite.suite([]).status == 0)
    }
}
