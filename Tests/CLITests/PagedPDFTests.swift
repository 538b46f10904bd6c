import Foundation
import TestSupport
import Testing

/// A deterministic article: paragraphs of different lengths, headings with "# ".
private func article(paragraphs: Int, seed: UInt64 = 7, vocabulary: [String]? = nil) -> String {
    let words = vocabulary ?? ["page", "line", "highlight", "story", "break", "reader", "corner", "text", "block", "preview",
                               "glyph", "margin", "widow", "orphan", "flows", "across", "every", "never", "cut"]
    var state = seed
    func next(_ n: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(n))
    }
    var out: [String] = []
    for p in 0..<paragraphs {
        if p % 6 == 0 { out.append("# Part \(p / 6 + 1)") }
        out.append((0..<(8 + next(70))).map { _ in words[next(words.count)] }.joined(separator: " ") + ".")
    }
    return out.joined(separator: "\n")
}

private struct Dumped {
    var pages: Int
    var width: Double, height: Double
    var lines: [[String: Any]]
}

private func readDump(_ path: String) throws -> Dumped {
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    return Dumped(pages: json["pages"] as! Int, width: json["width"] as! Double, height: json["height"] as! Double,
                  lines: json["lines"] as! [[String: Any]])
}

private func pageText(_ pdf: String, _ page: Int) throws -> String {
    try runTool("/usr/bin/pdftotext", ["-f", "\(page)", "-l", "\(page)", pdf, "-"]).output
}

private func words(_ text: String) -> [Substring] {
    text.split(whereSeparator: { $0.isWhitespace })
}

@Suite struct PagedPDFTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    /// Page `page` of `pdf` at 72 dpi against the golden `name` (pages area).
    func checkPage(_ pdf: String, _ page: Int, golden name: String) throws {
        let prefix = dir.appendingPathComponent("\(name)-\(page)").path
        _ = try runTool("/usr/bin/pdftoppm", ["-r", "72", "-f", "\(page)", "-l", "\(page)", "-png", "-singlefile", pdf, prefix])
        try Golden.check(try [UInt8](Data(contentsOf: URL(fileURLWithPath: prefix + ".png"))), area: "pages", name: name, maxDiffPixels: 20)
    }

    func render(_ text: String, _ flags: [String], name: String = "out") throws -> (pdf: String, dump: String, result: CLIResult) {
        let input = dir.appendingPathComponent("\(name).txt")
        try Data(text.utf8).write(to: input)
        let pdf = dir.appendingPathComponent("\(name).pdf").path, dump = dir.appendingPathComponent("\(name).json").path
        let result = try CLI.run(["render", "--text-file", input.path, "--font", "Noto Sans", "--size", "11",
                                  "-o", pdf, "--dump-layout", dump] + flags)
        #expect(result.status == 0, "\(result.stderr)")
        if result.status == 0 { #expect(try qpdfCheck(pdf), "qpdf --check \(pdf)") }
        return (pdf, dump, result)
    }

    /// Long enough for several layout chunks: every line on exactly one page, in order, and
    /// the pages' text together is the input.
    @Test func textFlowsAcrossPagesInOrder() throws {
        let text = article(paragraphs: 260)
        #expect(text.utf8.count > 66_000)
        let (pdf, dumpPath, _) = try render(text, ["--page", "a5", "--page-margin", "15mm 12mm"])
        let dump = try readDump(dumpPath)
        let info = try runTool("/usr/bin/pdfinfo", [pdf]).output
        #expect(info.contains("Pages:           \(dump.pages)"))
        #expect(info.contains("Page size:       420 x 596 pts (A5)"), "\(info)")
        #expect(dump.pages > 20)
        var all: [Substring] = []
        for page in 1...dump.pages {
            let shown = try pageText(pdf, page)
            all += words(shown)
            let lines = dump.lines.filter { $0["page"] as! Int == page }
            #expect(!lines.isEmpty)
            // Each line's words are on its page; its box inside the margins.
            for line in lines {
                #expect(shown.contains((line["text"] as! String).trimmingCharacters(in: .whitespaces)))
                #expect(abs(line["x"] as! Double - 12 * 72 / 25.4) < 0.01 || (line["text"] as! String).isEmpty)
                #expect(line["top"] as! Double >= 15 * 72 / 25.4 - 0.01)
                #expect((line["top"] as! Double) + (line["height"] as! Double) <= dump.height - 15 * 72 / 25.4 + 0.01)
            }
        }
        #expect(all == words(text))
        // Pages in order: byte offsets only grow.
        let starts = dump.lines.map { $0["start"] as! Int }
        #expect(starts == starts.sorted())
        #expect(dump.lines.count == Set(starts).count)
    }

    /// With orphans/widows 2, no page break leaves one line of a paragraph on either side.
    @Test func orphansAndWidowsAreHonoured() throws {
        for (orphans, widows) in [(2, 2), (3, 4)] {
            let (_, dumpPath, _) = try render(article(paragraphs: 60, seed: 3),
                                              ["--page", "100x200mm", "--orphans", "\(orphans)", "--widows", "\(widows)"],
                                              name: "ow\(orphans)")
            let lines = try readDump(dumpPath).lines
            var checked = 0
            for i in 1..<lines.count where lines[i]["page"] as! Int != lines[i - 1]["page"] as! Int {
                // A break inside a paragraph: the lines of that paragraph on each side.
                let text = lines[i - 1]["text"] as! String
                guard !text.hasSuffix("."), !text.hasPrefix("# ") else { continue }  // the paragraph ended: no split
                var before = 1, after = 1
                var j = i - 1
                while j > 0, !(lines[j - 1]["text"] as! String).hasSuffix("."), !(lines[j - 1]["text"] as! String).hasPrefix("# ") {
                    before += 1
                    j -= 1
                }
                j = i
                while j + 1 < lines.count, !(lines[j]["text"] as! String).hasSuffix(".") {
                    after += 1
                    j += 1
                }
                #expect(before >= orphans, "page break at line \(i): \(before) lines before")
                #expect(after >= widows, "page break at line \(i): \(after) lines after")
                checked += 1
            }
            #expect(checked > 0, "no page break fell inside a paragraph")
        }
    }

    @Test func pageNumbersHeaderAndBookmarks() throws {
        let (pdf, dumpPath, _) = try render(article(paragraphs: 40),
                                            ["--page", "a5", "--page-numbers", "--header", "Preview {page}"])
        let pages = try readDump(dumpPath).pages
        #expect(pages >= 3)
        for page in 1...pages {
            let text = try pageText(pdf, page)
            // (pdftotext may drop the narrow spaces of the small footer.)
            #expect(text.replacingOccurrences(of: " ", with: "").contains("\(page)/\(pages)"), "page \(page): \(text.suffix(40))")
            #expect(text.contains("Preview \(page)"))
        }
        let outline = try runTool("/usr/bin/qpdf", ["--json", "--json-key=outlines", pdf]).output
        let titles = outline.split(separator: "\n").filter { $0.contains("\"title\"") }
        #expect(titles.count == 7, "\(titles)")
        #expect(titles.first?.contains("Part 1") == true)
        let formatted = try render("one\ntwo", ["--page", "300x200", "--page-number-format", "Seite {page} von {pages}"], name: "fmt")
        #expect(try pageText(formatted.pdf, 1).replacingOccurrences(of: " ", with: "").contains("Seite1von1"))
    }

    @Test func metadataAndReproducibleBytes() throws {
        let input = dir.appendingPathComponent("m.txt")
        try Data(article(paragraphs: 30).utf8).write(to: input)
        var outputs: [Data] = []
        for name in ["m1", "m2"] {
            let path = dir.appendingPathComponent("\(name).pdf").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["render", "--text-file", input.path, "--size", "11", "--page", "letter", "--page-numbers",
                                 "--title", "Paged", "--author", "Tests", "--subject", "pages", "--keywords", "a, b",
                                 "-o", path, "--no-system-fonts"]
            var environment = ProcessInfo.processInfo.environment
            environment["SOURCE_DATE_EPOCH"] = "1700000000"
            process.environment = environment
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(try qpdfCheck(path))
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            if name == "m1" { sleep(1) }
        }
        #expect(outputs[0] == outputs[1])
        let info = try runTool("/usr/bin/pdfinfo", [dir.appendingPathComponent("m1.pdf").path]).output
        for expected in ["Title:           Paged", "Author:          Tests", "Subject:         pages", "Keywords:        a, b",
                         "CreationDate:    Tue Nov 14 22:13:20 2023 UTC", "Page size:       612 x 792 pts (letter)"] {
            #expect(info.contains(expected), "\(info)")
        }
    }

    /// Restricted across pages: only the visible lines reach the PDF as text or font glyphs.
    @Test func restrictedPagesLeakNothing() throws {
        // Visible: lowercase words; hidden: capital words made of letters the visible part never uses.
        let visible = "alpha beta gamma delta epsilon kappa lambda omega sigma theta"
        let hiddenWords = ["QUIZ", "JUXTAPOSE", "ZYXWV", "VEXQUIZ", "WQXZJ"]
        var text = visible + "\n"
        for i in 0..<30 { text += (0..<12).map { hiddenWords[($0 + i) % hiddenWords.count] }.joined(separator: " ") + "\n" }
        let (pdf, dumpPath, _) = try render(text, ["--page", "500x200", "--page-numbers", "--visible-lines", "1",
                                                   "--scramble-seed", "5"], name: "restricted")
        let dump = try readDump(dumpPath)
        #expect(dump.pages >= 3)
        #expect(dump.lines.count == 1)
        let extracted = try runTool("/usr/bin/pdftotext", [pdf, "-"]).output
        #expect(words(extracted).filter { !$0.contains("/") && Int($0) == nil } == words(visible))
        // Decompressed, the file holds no hidden word and no capital letter in any ToUnicode map.
        let qdf = dir.appendingPathComponent("restricted-qdf.pdf").path
        _ = try runTool("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let raw = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        for word in hiddenWords { #expect(!raw.contains(word)) }
        for capital in ["0051", "0055", "005A", "0058", "004A", "0057"] {
            #expect(!raw.contains("<\(capital)>"), "the font subset maps U+\(capital)")
        }
        let fonts = try runTool("/usr/bin/pdffonts", [pdf]).output
        #expect(fonts.split(separator: "\n").dropFirst(2).allSatisfy { $0.contains(" yes yes yes ") }, "\(fonts)")
        // Tagged (the default): the structure tree holds the visible words and no hidden one.
        let structure = try runTool("/usr/bin/pdfinfo", ["-struct-text", pdf]).output
        #expect(structure.contains("alpha beta gamma"), "\(structure.prefix(300))")
        for word in hiddenWords { #expect(!structure.contains(word)) }
        // --max-pages: a preview of the start.
        let (short, shortDump, _) = try render(text, ["--page", "500x200", "--visible-lines", "1", "--max-pages", "2"], name: "short")
        #expect(try runTool("/usr/bin/pdfinfo", [short]).output.contains("Pages:           2"))
        #expect(try readDump(shortDump).pages == 2)
    }

    /// A restricted PDF's vector content (highlight path, clip, text) is the same whatever the
    /// hidden lines say: only the blurred image differs. One page and paged.
    @Test func restrictedVectorsDoNotDependOnHiddenLines() throws {
        for paged in [false, true] {
            var streams: [String] = []
            for (i, hidden) in ["wider hidden words", "tiny"].enumerated() {
                let pdf = dir.appendingPathComponent("vec-\(paged)-\(i).pdf").path
                let flags = paged ? ["--page", "400x300"] : ["--width", "300"]
                let result = try CLI.run(["render", "--text", "Short line\n\(hidden)", "--size", "18", "--highlight", "#FFD23F",
                                          "--visible-lines", "1", "--scramble-seed", "1", "-o", pdf] + flags)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(try qpdfCheck(pdf))
                let pages = try runTool("/usr/bin/qpdf", ["--show-pages", pdf]).output
                let object = pages.split(separator: "\n").dropFirst(2).first.map { String($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) } ?? "?"
                streams.append(try runTool("/usr/bin/qpdf", ["--show-object=\(object)", "--filtered-stream-data", pdf]).output)
            }
            #expect(!streams[0].isEmpty && streams[0] == streams[1], "paged \(paged): the content stream depends on the hidden line")
        }
    }

    /// A highlighted paragraph split by a page break closes on both pages with its own corners.
    @Test func highlightSplitAcrossAPageBreak() throws {
        let text = article(paragraphs: 3, seed: 11)
        let (pdf, dumpPath, _) = try render(text, ["--page", "100x70mm", "--page-margin", "8mm", "--highlight", "#FFD23F",
                                                   "--orphans", "1", "--widows", "1"], name: "split")
        #expect(try readDump(dumpPath).pages >= 2)
        for page in [1, 2] { try checkPage(pdf, page, golden: "highlightSplitAcrossAPageBreak-\(page)") }
    }

    /// A span highlight cut by a page break closes on each page: its end on page 1, its start on page 2.
    @Test func spanHighlightSplitAcrossAPageBreak() throws {
        let words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua"
            .split(separator: " ")
        let all = words.joined(separator: " ")
        let phrase: String = words.prefix(14).joined(separator: " ")
        let rest: String = (words.dropFirst(4) + words.dropFirst(4)).joined(separator: " ")
        let markup = "\(all) \(all) \(all) <span highlight='#FFD23F'>\(phrase)</span> \(rest)"
        let input = dir.appendingPathComponent("span-split.markup")
        try Data(markup.utf8).write(to: input)
        let pdf = dir.appendingPathComponent("span-split.pdf").path, dump = dir.appendingPathComponent("span-split.json").path
        let result = try CLI.run(["render", "--markup-file", input.path, "--size", "11", "--page", "100x70mm", "--page-margin", "8mm",
                                  "--orphans", "1", "--widows", "1", "-o", pdf, "--dump-layout", dump])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try qpdfCheck(pdf))
        // The span starts on page 1's last line and goes on at the top of page 2.
        #expect(try pageText(pdf, 2).hasPrefix("adipiscing elit sed do eiusmod tempor\nincididunt ut amet"))
        // The dump lists the span on both pages, each part with its own closed outline, its
        // boxes on lines of that page.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dump))) as! [String: Any]
        let lines = json["lines"] as! [[String: Any]], spans = json["spans"] as! [[String: Any]]
        #expect(spans.map { $0["page"] as! Int } == [1, 2])
        for span in spans {
            #expect((span["highlight"] as! [String: Any])["contours"] as? Int == 1)
            for box in span["boxes"] as! [[String: Any]] {
                let line = lines[box["line"] as! Int]
                #expect(line["page"] as? Int == span["page"] as? Int && line["top"] as? Double == box["top"] as? Double, "\(box) \(line)")
            }
        }
        #expect((spans[0]["boxes"] as! [[String: Any]]).count == 1 && (spans[1]["boxes"] as! [[String: Any]]).count == 2)
        for page in [1, 2] { try checkPage(pdf, page, golden: "spanHighlightSplitAcrossAPageBreak-\(page)") }
    }

    /// Paragraphs on pages: a first-line indent and space between paragraphs, the space also
    /// between layout chunks; a page's first line starts at its top whatever the spacing.
    @Test func paragraphSpacingAndIndentOnPages() throws {
        let text = article(paragraphs: 60, seed: 5)
        let (pdf, dumpPath, _) = try render(text, ["--page", "105x148mm", "--page-margin", "10mm", "--paragraph-spacing", "6",
                                                   "--indent", "1.5em", "--max-pages", "2"], name: "paragraphs")
        let lines = try readDump(dumpPath).lines
        let first = lines.filter { $0["page"] as? Int == 1 }
        let margin = 10 / 25.4 * 72
        #expect(abs((first[0]["top"] as! Double) - margin) < 0.01)
        for (above, line) in zip(first, first.dropFirst()) {
            let gap = (line["top"] as! Double) - (above["top"] as! Double) - (above["height"] as! Double)
            let starts = text.utf8.prefix(line["start"] as! Int).last == UInt8(ascii: "\n")
            // 6 pt between paragraphs, none inside one; each paragraph's first line 16.5 pt in.
            #expect(abs(gap - (starts ? 6 : 0)) < 0.01, "\(line)")
            #expect(abs((line["x"] as! Double) - margin - (starts ? 16.5 : 0)) < 0.01, "\(line)")
        }
        try checkPage(pdf, 1, golden: "paragraphSpacingAndIndentOnPages")
    }

    /// On pages lines keep one pitch: a line that falls back to Arabic, CJK and emoji fonts is
    /// as tall as its neighbours (a larger span still makes its own line taller).
    @Test func mixedScriptLinesKeepThePitchOnPages() throws {
        let (pdf, dumpPath, _) = try render("Plain line of Latin text here.\nMixed مرحبا 春 👩‍💻 line.\nAnother plain Latin line.",
                                            ["--page", "105x60mm"], name: "pitch")
        let heights = try readDump(dumpPath).lines.map { $0["height"] as! Double }
        #expect(heights.count == 3 && Set(heights).count == 1, "\(heights)")
        try checkPage(pdf, 1, golden: "mixedScriptLinesKeepThePitchOnPages")
        let input = dir.appendingPathComponent("big.markup")
        try Data("Plain line.\nA <span size='30pt'>big</span> word.\nPlain again.".utf8).write(to: input)
        let dump = dir.appendingPathComponent("big.json").path
        let result = try CLI.run(["render", "--markup-file", input.path, "--size", "11", "--page", "105x148mm",
                                  "-o", dir.appendingPathComponent("big.pdf").path, "--dump-layout", dump])
        #expect(result.status == 0, "\(result.stderr)")
        let big = try readDump(dump).lines.map { $0["height"] as! Double }
        #expect(big[1] > big[0] * 1.8 && big[0] == big[2], "\(big)")
    }

    /// Pages are streamed into the output as they are drawn: a full disk is one line in the
    /// system's words naming the output, and a failed run leaves no file behind.
    @Test func aWriteFailureWhileStreamingPagesIsOneLine() throws {
        let result = try CLI.run(["render", "--text", article(paragraphs: 40), "--page", "a5", "--format", "pdf", "-o", "/dev/full"])
        #expect(result.status == 3)
        #expect(result.stderr == "hlrender: error: cannot write '/dev/full': No space left on device\n", "\(result.stderr)")
        // A bad page option fails before anything is written: no file, no temporary left.
        let out = dir.appendingPathComponent("never.pdf").path
        let bad = try CLI.run(["render", "--text", "x", "--page", "a5", "--page-margin", "80mm", "-o", out])
        #expect(bad.status == 3 && !FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test func badPageOptionsAreOneLineErrors() throws {
        let out = dir.appendingPathComponent("bad.pdf").path
        for (flags, message) in [
            (["--page", "a9", "-o", out], "--page: 'a9' is not"),
            (["--page", "a4", "-o", dir.appendingPathComponent("x.png").path], "--page makes PDF pages"),
            (["--page", "a4", "--page-margin", "400pt", "-o", out], "--page-margin"),
            (["--page-numbers", "-o", out], "--page-numbers need --page"),
            (["--page", "a4", "--page-number-format", "{pg}", "-o", out], "unknown placeholder '{pg}'"),
            (["--page", "a4", "--orphans", "0", "-o", out], "--orphans: must be a whole number from 1 to 100, got 0"),
            (["--page", "200x40", "--page-margin", "2", "--size", "60", "-o", out], "pt tall"),
        ] {
            let result = try CLI.run(["render", "--text", "Hello there"] + flags)
            #expect(result.status == 3, "\(flags)")
            #expect(result.stderr.contains(message), "\(flags): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
