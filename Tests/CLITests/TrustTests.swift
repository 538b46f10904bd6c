import Codecs
import Render
import Compare
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 35's findings, each fed through every front end that can carry it. Each of these
/// failed on f730c20.

private func file(_ dir: URL, _ name: String, _ text: String) throws -> String {
    let url = dir.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
}

/// Every `/S` action and `/URI` string in a PDF, read back by qpdf (so what a viewer would see).
private func actions(_ pdf: String) throws -> (kinds: [String], uris: [String]) {
    let qdf = pdf + ".qdf"
    defer { unlink(qdf) }
    let (status, _) = try runTool("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
    #expect(status == 0)
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
    var kinds: [String] = [], uris: [String] = []
    for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
        if line.hasPrefix("/S /") { kinds.append(String(line.dropFirst(4))) }
        if line.hasPrefix("/URI (") { uris.append(String(line.dropFirst(6).dropLast())) }
    }
    return (kinds.filter { !["Transparency", "Document", "Link", "Span", "P"].contains($0) }, uris)
}

@Suite struct PDFLinkTrustTests {
    static let injection = "http://x/) /S /JavaScript /JS (app.alert(1)"

    @Test func anAddressCannotCloseItsStringInMarkupSpansOrBatchRows() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let markup = dir.appendingPathComponent("markup.pdf").path
        var result = try CLI.run(["render", "--markup", "<a href=\"\(Self.injection)\">link</a>", "-o", markup])
        #expect(result.status == 0, "\(result.stderr)")
        let spec = try file(dir, "card.json", #"{"size": "400x200", "padding": 8, "blocks": [{"type": "text", "spans": [{"text": "go", "link": "{{ref}}"}]}]}"#)
        let card = dir.appendingPathComponent("card.pdf").path
        result = try CLI.run(["card", spec, "--var", "ref=\(Self.injection)", "-o", card])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try file(dir, "rows.jsonl", "{\"id\": \"row\", \"ref\": \(String(reflecting: Self.injection))}\n")
        result = try CLI.run(["batch", "--template", spec, "--data", rows, "--output", "{{id}}.pdf", "--out-dir", dir.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        for pdf in [markup, card, dir.appendingPathComponent("row.pdf").path] {
            #expect(try qpdfCheck(pdf))
            let found = try actions(pdf)
            #expect(found.kinds == ["URI"], "\(pdf): \(found.kinds)")
            #expect(found.uris == ["http://x/%29%20/S%20/JavaScript%20/JS%20%28app.alert%281%29"], "\(found.uris)")
        }
    }

    @Test func onlyWebMailAndInDocumentSchemesAreTaken() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for address in ["javascript:app.alert(1)", "JavaScript:x", "file:///etc/passwd", "data:text/html,x", "relative/page", "\u{1}http://x"] {
            let out = dir.appendingPathComponent("refused.pdf").path
            let result = try CLI.run(["render", "--markup", "<a href=\"\(address)\">link</a>", "-o", out])
            #expect(result.status == 3, "\(address)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("href"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let spec = try file(dir, "card.json", #"{"size": "400x200", "padding": 8, "blocks": [{"type": "text", "spans": [{"text": "go", "link": "file:///etc/passwd"}]}]}"#)
        let result = try CLI.run(["card", spec, "-o", dir.appendingPathComponent("c.pdf").path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("blocks[0].spans[0].link") && result.stderr.contains("'file:'"), "\(result.stderr)")
        let ok = dir.appendingPathComponent("ok.pdf").path
        let fine = try CLI.run(["render", "--markup", "<a href=\"MAILTO:a@b.c\">a</a> <a href=\"#top\">b</a> <a href=\"https://x/é?q=(1)\">c</a>", "-o", ok])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(try actions(ok).uris == ["MAILTO:a@b.c", "#top", "https://x/%C3%A9?q=%281%29"])
    }

    /// Issue 35, finding 1: "unless a flag widens it". The operator's `--link-schemes` adds
    /// schemes for render, steps, card and batch; script schemes stay out whatever is given.
    @Test func theLinkSchemesFlagWidensTheRunsPolicyNeverToScript() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("tel.pdf").path
        var result = try CLI.run(["render", "--markup", "<a href=\"tel:+15550100\">call</a>", "--link-schemes", "TEL,ftp", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try actions(out).uris == ["tel:+15550100"])
        result = try CLI.run(["steps", "--step", "<a href='ftp://x/'>get</a>", "--step", "b", "--steps-markup", "--link-schemes", "ftp", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try actions(out).uris == ["ftp://x/"])
        let spec = try file(dir, "card.json", #"{"size": "400x200", "padding": 8, "blocks": [{"type": "text", "spans": [{"text": "go", "link": "{{ref}}"}]}]}"#)
        result = try CLI.run(["card", spec, "--var", "ref=tel:1", "--link-schemes", "tel", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try file(dir, "rows.csv", "id,ref\nok,tel:2\nno,ftp://x\n")
        result = try CLI.run(["batch", "--template", spec, "--data", rows, "--output", "{{id}}.pdf", "--out-dir", dir.path, "--quiet", "--link-schemes", "tel"])
        #expect(result.status != 0 && result.stderr.contains("'ftp:'"), "\(result.stderr)")
        #expect(try actions(dir.appendingPathComponent("ok.pdf").path).uris == ["tel:2"])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("no.pdf").path))
        for (value, words) in [("javascript", "never allowed"), ("vbscript", "never allowed"), ("a b", "not a URI scheme"), ("", "not a URI scheme")] {
            result = try CLI.run(["render", "--text", "x", "--link-schemes", value, "-o", dir.appendingPathComponent("x.pdf").path])
            #expect(result.status == 3 && result.stderr.contains("--link-schemes") && result.stderr.contains(words), "\(value): \(result.stderr)")
        }
        // A card cannot widen its own links: the policy is no card key.
        let own = try file(dir, "own.json", #"{"size": "400x200", "link-schemes": "tel", "blocks": [{"type": "text", "text": "x"}]}"#)
        result = try CLI.run(["card", own, "-o", out])
        #expect(result.status == 3 && result.stderr.contains("link-schemes"), "\(result.stderr)")
    }

    @Test func documentInformationWithParenthesesStaysOneString() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("info.pdf").path
        let result = try CLI.run(["render", "--text", "x", "--title", "a) /JS (b", "--author", "\\) (", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try qpdfCheck(out))
        let (_, info) = try runTool("/usr/bin/pdfinfo", [out])
        let fields = info.split(separator: "\n").map { $0.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(fields.contains(["Title", "a) /JS (b"]) && fields.contains(["Author", "\\) ("]), "\(info)")
    }
}

@Suite struct MarkupVariableTrustTests {
    static let hostile = "<a href='https://evil.example/'>W</a>"

    @Test func aValueIsTextInStepsMarkupSetOnTheCardOrABlock() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (n, spec) in [#"{"size": "600x300", "steps-markup": true, "blocks": [{"type": "steps", "steps": ["<b>Hi</b> {{name}}", "Two"]}]}"#,
                          #"{"size": "600x300", "blocks": [{"type": "steps", "steps-markup": true, "steps": ["<b>Hi</b> {{name}}", "Two"]}]}"#,
                          #"{"size": "600x300", "blocks": [{"type": "text", "markup": "<b>Hi</b> {{name}}"}]}"#].enumerated() {
            let path = try file(dir, "s\(n).json", spec)
            let out = dir.appendingPathComponent("s\(n).pdf").path
            let result = try CLI.run(["card", path, "--var", "name=\(Self.hostile)", "-o", out])
            #expect(result.status == 0, "\(n): \(result.stderr)")
            #expect(try actions(out).uris.isEmpty, "\(n): no link from a value")
            #expect(try pdfText([UInt8](Data(contentsOf: URL(fileURLWithPath: out)))).contains("href"), "\(n): the value shows as text")
        }
    }

    @Test func aBooleanKeyTakesOnlyABoolean() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for value in [#""yes""#, #""true""#, "1", #""{{m}}""#] {
            let path = try file(dir, "b.json", #"{"size": "600x300", "steps-markup": \#(value), "blocks": [{"type": "steps", "steps": ["{{name}}", "Two"]}]}"#)
            let result = try CLI.run(["card", path, "--var", "name=x", "--var", "m=true", "-o", dir.appendingPathComponent("b.png").path])
            #expect(result.status == 3, "\(value)")
            #expect(result.stderr.contains("steps-markup: must be true or false"), "\(result.stderr)")
        }
        let strike = try file(dir, "st.json", #"{"size": "400x200", "padding": 8, "blocks": [{"type": "text", "spans": [{"text": "x", "strikethrough": "yes"}]}]}"#)
        let result = try CLI.run(["card", strike, "-o", dir.appendingPathComponent("st.png").path])
        #expect(result.status == 3 && result.stderr.contains("strikethrough"), "\(result.stderr)")
    }
}

@Suite struct RestrictedDumpTrustTests {
    @Test func theDumpSaysNothingOfHiddenSpans() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let markup = "Shown <b>bold start and</b>\nhidden <a href=\"https://secret.example/x\"><span color=\"red\" lang=\"de\" font_features=\"smcp\">geheimwort</span></a> <span highlight=\"yellow\">tail</span>"
        let spec = try file(dir, "r.json", #"{"size": "600x300", "visible-lines": 1, "blocks": [{"type": "text", "width": 500, "markup": \#(String(reflecting: markup))}]}"#)
        let render = try CLI.run(["render", "--width", "500", "--visible-lines", "1", "--markup", markup, "--dump-layout", "-",
                                  "-o", dir.appendingPathComponent("r.png").path])
        let card = try CLI.run(["card", spec, "--dump-layout", "-", "-o", dir.appendingPathComponent("c.png").path])
        for result in [render, card] {
            #expect(result.status == 0, "\(result.stderr)")
            let dump = String(decoding: result.stdout, as: UTF8.self)
            for secret in ["secret.example", "#FF0000", "\"de\"", "smcp", "geheimwort", "FFFF00"] {
                #expect(!dump.contains(secret), "\(secret) in \(dump)")
            }
            // The bold span on the shown line is still there, cut where that line ends.
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
            let block = (json["blocks"] as? [[String: Any]])?.first ?? json
            let lines = block["lines"] as! [[String: Any]], spans = block["spans"] as! [[String: Any]]
            #expect(lines.count == 1 && spans.count == 1, "\(dump)")
            #expect(spans.first?["end"] as? Int == lines.first?["end"] as? Int && spans.first?["start"] as? Int == 6)
        }
    }
}

/// Inputs whose cost used to grow without bound. No timing: the run must finish inside an
/// address-space limit it used to blow through (2 GB and more on f730c20).
@Suite struct BoundedLoopTrustTests {
    @Test func aWavyUnderlineIsBoundedByTheCanvas() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = try file(dir, "w.json", #"{"size": "200x200", "blocks": [{"type": "text", "width": 180, "size": 0.01, "markup": "<span underline='error' letter_spacing='1000000pt'>hello wavy world</span>"}]}"#)
        for format in ["png", "pdf"] {
            let out = dir.appendingPathComponent("w.\(format)").path
            let (status, output) = try runTool("/bin/sh", ["-c", "ulimit -v 1500000; exec \"$0\" card \"$1\" -o \"$2\" --no-system-fonts",
                                                          CLI.binary, spec, out])
            #expect(status == 0, "\(format): \(output)")
        }
    }
}

/// A FIFO where a file is expected used to block for good (the CLI hung; a service slot
/// stayed taken until restart). Each is refused now, in one line, at once.
@Suite struct FIFOTrustTests {
    @Test func aFIFOIsRefusedAsAFontAFontFolderEntryAndABatchOutput() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe.ttf").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let out = dir.appendingPathComponent("o.png").path
        var result = try CLI.run(["render", "--text", "hi", "--font", fifo, "-o", out], timeout: 20)
        #expect(result.status == 3 && !result.signalled, "\(result.stderr)")
        #expect(result.stderr.contains("pipe.ttf"), "\(result.stderr)")
        result = try CLI.run(["render", "--text", "hi", "--font-dir", dir.path, "-o", out], timeout: 20)
        #expect(result.status == 3 && !result.signalled)
        #expect(result.stderr.contains("holds 'pipe.ttf', which is not a regular file"), "\(result.stderr)")
        let card = try file(dir, "card.json", #"{"size": "200x100", "padding": 8, "blocks": [{"type": "text", "text": "hi", "font": "pipe.ttf"}]}"#)
        result = try CLI.run(["card", card, "-o", out], timeout: 20)
        #expect(result.status == 3 && !result.signalled, "\(result.stderr)")
        // A row naming a FIFO planted in the output folder: that row fails, the others render.
        let outDir = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        #expect(mkfifo(outDir.appendingPathComponent("b.png").path, 0o644) == 0)
        let spec = try file(dir, "t.json", #"{"size": "200x100", "padding": 8, "blocks": [{"type": "text", "text": "{{id}}"}]}"#)
        let rows = try file(dir, "rows.csv", "id\na\nb\nc\n")
        result = try CLI.run(["batch", "--template", spec, "--data", rows, "--output", "{{id}}.png", "--out-dir", outDir.path, "--quiet"], timeout: 30)
        #expect(result.status == 3 && !result.signalled, "\(result.stderr)")
        #expect(result.stderr.contains("b.png") && result.stderr.contains("not a regular file"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: outDir.appendingPathComponent("a.png").path))
        #expect(FileManager.default.fileExists(atPath: outDir.appendingPathComponent("c.png").path))
    }

    @Test func aFIFOTheUserNamesAsOutputFailsUnlessSomethingReadsIt() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("out.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let result = try CLI.run(["render", "--text", "hi", "-o", fifo], timeout: 20)
        #expect(result.status == 3 && !result.signalled && result.stderr.contains("a FIFO that nothing reads"), "\(result.stderr)")
        let null = try CLI.run(["render", "--text", "hi", "-o", "/dev/null", "--format", "png"])
        #expect(null.status == 0, "\(null.stderr)")
    }

    @Test func theTemporarySweepLeavesFilesThatOnlyLookLikeOurs() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = [".notes.hlrender-draft.tmp", ".hlrender-.tmp", ".x.hlrender-12-abc.tmp", ".hlrender-abcdefg.tmp"]
        for name in names { try Data("keep".utf8).write(to: dir.appendingPathComponent(name)) }
        try Data("stale".utf8).write(to: dir.appendingPathComponent(".hlrender-Ab3dE9.tmp"))
        try Data("stale".utf8).write(to: dir.appendingPathComponent(".o.png.hlrender-4242-Zz9yY8.tmp"))
        let result = try CLI.run(["render", "--text", "hi", "-o", dir.appendingPathComponent("o.png").path])
        #expect(result.status == 0, "\(result.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(left == Set(names + ["o.png"]), "\(left)")
    }
}

/// Issue 35, finding 9: one malformed manifest line, invalid UTF-8 anywhere in the data, or an
/// unbalanced CSV quote aborted the run or swallowed the rows after it.
@Suite struct BatchRowTrustTests {
    @Test func eachBadManifestLineFailsAloneWithItsLine() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let card = { (output: String) in #"{"size": "200x100", "padding": 8, "output": "\#(output)", "blocks": [{"type": "text", "text": "x"}]}"# }
        var lines: [[UInt8]] = [Array(card("ok1.png").utf8), Array(#"{"size": "200x100", "output": "t.png", "blocks": [{"type": "text", "text": "tru"#.utf8),
                                Array("[1, 2]".utf8), Array(#"{"size": "200x100", "blocks": []}"#.utf8)]
        lines.append(Array(#"{"size": "200x100", "output": "u.png", "blocks": [{"type": "text", "text": ""#.utf8) + [0xFF, 0xFE] + Array(#""}]}"#.utf8))
        lines += [Array((card("trail.png") + " trailing").utf8), Array(#"{"output": "s.png", "text": "\ud800"}"#.utf8), Array("garbage".utf8),
                  Array(card("ok2.png").utf8)]
        let manifest = dir.appendingPathComponent("m.jsonl")
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: manifest)
        let out = dir.appendingPathComponent("out")
        let result = try CLI.run(["batch", manifest.path, "--out-dir", out.path, "--quiet"])
        #expect(result.status == 3)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["ok1.png", "ok2.png"])
        for line in 2...8 { #expect(result.stderr.contains("m.jsonl: line \(line): "), "line \(line): \(result.stderr)") }
        #expect(result.stderr.contains("line 5: not valid UTF-8") && result.stderr.contains("line 3: a card must be a JSON object"))
    }

    @Test func badBytesAndBrokenQuotesInDataFailTheirRowOnly() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = try file(dir, "t.json", #"{"size": "200x100", "padding": 8, "blocks": [{"type": "text", "text": "{{text}}"}]}"#)
        let csv = dir.appendingPathComponent("rows.csv")
        try Data(Array("id,text\n1,hi\n2,ok\n3,\"unbalanced\n4,x\n5,y\n6,\"z\"w\n7,fine\n8,".utf8) + [0xFF, 0xFE] + Array("bad\n9,last\n".utf8)).write(to: csv)
        let out = dir.appendingPathComponent("out")
        var result = try CLI.run(["batch", "--template", spec, "--data", csv.path, "--output", "{{id}}.png", "--out-dir", out.path, "--quiet"])
        #expect(result.status == 3)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == ["1.png", "2.png", "4.png", "5.png", "7.png", "9.png"])
        #expect(result.stderr.contains("rows.csv: line 4: ") && result.stderr.contains("rows.csv: line 7: ")
                && result.stderr.contains("rows.csv: line 9: not valid UTF-8"), "\(result.stderr)")
        // Lone CRs end lines for the CSV reader and for the UTF-8 check alike (a fuzzer found
        // the two counting differently, and a row's range running backwards).
        let cr = dir.appendingPathComponent("cr.csv")
        try Data(Array("id,text\r1,a\r2,".utf8) + [0xFF] + Array("\r3,c\n".utf8)).write(to: cr)
        let out3 = dir.appendingPathComponent("out3")
        result = try CLI.run(["batch", "--template", spec, "--data", cr.path, "--output", "{{id}}.png", "--out-dir", out3.path, "--quiet"])
        #expect(result.status == 3 && result.stderr.contains("cr.csv: line 3: not valid UTF-8"), "\(result.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out3.path)) == ["1.png", "3.png"])
        let jsonl = dir.appendingPathComponent("rows.jsonl")
        try Data(Array("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\", \"text\": \"".utf8) + [0xC3] + Array("\"}\n{\"id\": \"c\", \"text\": \"y\"}\n".utf8)).write(to: jsonl)
        let out2 = dir.appendingPathComponent("out2")
        result = try CLI.run(["batch", "--template", spec, "--data", jsonl.path, "--output", "{{id}}.png", "--out-dir", out2.path, "--quiet"])
        #expect(result.status == 3 && result.stderr.contains("rows.jsonl: line 2: not valid UTF-8"), "\(result.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out2.path)) == ["a.png", "c.png"])
    }
}

/// Issue 35, finding 10: a golden of another size was padded to the larger canvas (an 83-byte
/// 32767x1 golden made 779 MB; four 32767x3050 goldens 3.2 GB with two jobs).
@Suite struct GoldenSizeTrustTests {
    @Test func aGoldenOfAnotherSizeFailsFromItsHeaderAlone() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let goldens = dir.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        // Grey 32767 x 3050 images of zero rows: a few KB each, 100 M pixels decoded.
        for name in ["a", "b", "c", "d"] {
            try Data(try PNGCodec.encode(RGBAImage(width: 32767, height: name == "a" ? 1 : 3050, fill: (0, 0, 0, 255))))
                .write(to: goldens.appendingPathComponent("\(name).png"))
        }
        let spec = try file(dir, "t.json", #"{"size": "200x100", "padding": 8, "blocks": [{"type": "text", "text": "{{id}}"}]}"#)
        let rows = try file(dir, "rows.csv", "id\na\nb\nc\nd\n")
        let (status, output) = try runTool("/bin/sh", ["-c", "ulimit -v 1500000; exec \"$0\" batch --template \"$1\" --data \"$2\" --output '{{id}}.png' --out-dir \"$3\" --expect-dir \"$4\" --jobs 2 --no-system-fonts 2>&1",
                                                       CLI.binary, spec, rows, dir.appendingPathComponent("out").path, goldens.path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("changed: a.png (row 1): sizes differ: expected 32767x1, actual 200x100"), "\(output)")
        #expect(output.contains("goldens: 4 changed"), "\(output)")
    }
}

/// Issue 35, finding 11: the smaller ones.
@Suite struct SmallTrustTests {
    @Test func twoNamesForOneSettingAreFlaggedAndFontScaleTakesPangosWords() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o.png").path
        var result = try CLI.run(["render", "--markup", "<span color='red' foreground='blue'>x</span>", "-o", out])
        #expect(result.status == 3 && result.stderr.contains("foreground: sets the same as color"), "\(result.stderr)")
        result = try CLI.run(["render", "--markup", "a<span font_scale='superscript' baseline_shift='superscript'>2</span>", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        result = try CLI.run(["render", "--markup", "a<span font_scale='huge'>2</span>", "-o", out])
        #expect(result.status == 3 && result.stderr.contains("is not superscript, subscript or none"), "\(result.stderr)")
    }

    @Test func aHugeFontNameIsRefusedAtOnce() throws {
        let result = try CLI.run(["render", "--text", "x", "--font", String(repeating: "N", count: 100_000), "-o", "/dev/null", "--format", "png"],
                                 pinnedFonts: false, timeout: 30)
        #expect(result.status == 3 && !result.signalled && result.stderr.contains("--font: is longer than 4096 bytes"), "\(result.stderr)")
    }
}
