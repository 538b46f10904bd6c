import Foundation
import TestSupport
import Testing

/// `render --markdown --page` (issue 50): CommonMark's structure in the tagged PDF, read back by
/// pikepdf (Fixtures/structure_tree.py, structure_text.py) and poppler (`pdfinfo -struct-text`).
@Suite struct MarkdownPageTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let document = """
        # Quarterly report

        The *numbers* are **up**. Read [the report](https://example.com/report) or `notes.txt`.

        ## Highlights

        - Revenue grew
        - Costs fell
          1. travel
          2. offices
        - Hiring

        > Quoted words from the chair.

        ### Code

        ```
        let total = 1
        print(total)
        ```

        ---

        <b>raw</b> stays text.
        """

    private func tree(_ file: String) throws -> [String] {
        let script = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/structure_tree.py").path
        let result = try runTool("/usr/bin/python3", [script, file])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func headingsListsQuotesCodeAndLinksAreTaggedInOrder() throws {
        let file = path("report.pdf")
        let result = try CLI.run(["render", "--markdown", Self.document, "--page", "a5", "--title", "Report", "--lang", "en",
                                  "--pdf-standard", "ua-1", "-o", file])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try tree(file)
        #expect(lines == [
            "Document",
            "  H1", "  P", "  Link", "  H2",
            "  L",
            "    LI", "      Lbl", "      LBody", "        P",
            "    LI", "      Lbl", "      LBody", "        P",
            // The nested list inside its item's body, after the item's text.
            "        L",
            "          LI", "            Lbl", "            LBody", "              P",
            "          LI", "            Lbl", "            LBody", "              P",
            "    LI", "      Lbl", "      LBody", "        P",
            "  BlockQuote", "  H3", "  Code", "  P",
            // Headings nest in the outline by level.
            "outline: Quarterly report", "outline:   Highlights", "outline:     Code",
        ])
        // What each element says, by both readers: no "#", labels apart, lines of code apart.
        let script = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/structure_text.py").path
        let walked = try runTool("/usr/bin/python3", [script, file]).output.split(separator: "\n").map(String.init)
        let expected = ["H1\tQuarterly report", "P\tThe numbers are up. Read the report or notes.txt.", "H2\tHighlights",
                        "Lbl\t•\u{00A0}", "P\tRevenue grew", "Lbl\t•\u{00A0}", "P\tCosts fell", "Lbl\t1.\u{00A0}", "P\ttravel",
                        "Lbl\t2.\u{00A0}", "P\toffices", "Lbl\t•\u{00A0}", "P\tHiring", "BlockQuote\tQuoted words from the chair.",
                        "H3\tCode", "Code\tlet total = 1 print(total)", "P\t<b>raw</b> stays text."]
        #expect(walked == expected, "\(walked)")
        let poppler = try runTool("/usr/bin/pdfinfo", ["-struct-text", file]).output
        for text in ["\"Quarterly report\"", "\"The numbers are up. Read the report or notes.txt.\"", "\"let total = 1 print(total)\""] {
            #expect(poppler.contains(text), "\(poppler)")
        }
        #expect(!poppler.contains("#"))
        #expect(try qpdfCheck(file))
    }

    /// Lists, quotes and code are inset; a label hangs left of its item's text.
    @Test func blocksAreInsetAndLabelsHang() throws {
        let result = try CLI.run(["render", "--markdown", "Body text.\n\n- item that is long enough to wrap onto a second line of the page\n\n> quote\n",
                                  "--page", "100x80mm", "--size", "10", "--title", "T", "-o", path("inset.pdf"), "--dump-layout", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        let lines = (json["lines"] as! [[String: Any]]).map { ($0["text"] as! String, $0["x"] as! Double) }
        #expect(lines.count == 5, "\(lines)")
        let (body, item, wrapped, quote): (Double, Double, Double, Double) = (lines[0].1, lines[1].1, lines[2].1, lines[4].1)
        // The item's text starts where its second line does: the label hangs before it.
        #expect(item < wrapped, "\(lines)")
        #expect(abs(wrapped - body - 17.5) < 0.01, "\(lines)")  // 1.75 em at 10 pt
        #expect(abs(quote - body - 12.5) < 0.01, "\(lines)")  // 1.25 em
    }

    /// Any bytes are a CommonMark document: never an error, never a crash.
    @Test func badMarkdownIsText() throws {
        let input = path("bad.md")
        var bytes: [UInt8] = Array("# ok\n".utf8)
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes.append(Array("*_`[]()<>!#->\n \\&;0123ab\u{0}".utf8)[Int(state >> 59) % 24])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let result = try CLI.run(["render", "--markdown-file", input, "--page", "a5", "-o", path("bad.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try qpdfCheck(path("bad.pdf")))
        // 300 nested lists: the structure tree nests 16 deep at most (3 elements each).
        try Data((0..<300).map { String(repeating: "  ", count: $0) + "- x\n" }.joined().utf8).write(to: URL(fileURLWithPath: path("deep.md")))
        let deep = try CLI.run(["render", "--markdown-file", path("deep.md"), "--page", "a5", "-o", path("deep.pdf")])
        #expect(deep.status == 0, "\(deep.stderr)")
        let indents = try tree(path("deep.pdf")).map { $0.prefix { $0 == " " }.count / 2 }
        #expect(indents.max() == 1 + 16 * 3, "\(indents.max() ?? 0)")
    }

    /// A card's `{{variable}}` in `markdown` is text: it cannot start a heading or a link.
    @Test func aVariableInMarkdownIsText() throws {
        let spec = path("card.json")
        try Data(#"{"size": "600x200", "blocks": [{"type": "text", "markdown": "**Hi** {{name}}", "size": 30}]}"#.utf8)
            .write(to: URL(fileURLWithPath: spec))
        let result = try CLI.run(["card", spec, "--var", "name=[x](javascript:alert(1)) # *y*", "-o", path("card.png"), "--dump-layout", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        let block = (json["blocks"] as! [[String: Any]])[0]
        #expect(((block["lines"] as! [[String: Any]]).map { $0["text"] as! String }) == ["Hi [x](javascript:alert(1)) # *y*"])
        // No link came of it.
        #expect(block["spans"].map { "\($0)".contains("link") } != true)
    }

    /// A picture alone in its paragraph is drawn in the flow: a Figure with its alt text, in
    /// reading order; PDF/UA-1 refuses one without alt text, naming its line, and writes nothing.
    @Test func picturesAreFiguresInTheFlow() throws {
        let logo = try CLI.run(["card", "-", "-o", path("logo.png")],
                               stdin: Array(##"{"size": "300x150", "padding": 0, "background": "#C62828", "blocks": []}"##.utf8))
        #expect(logo.status == 0, "\(logo.stderr)")
        try Data("# Pictures\n\nBefore.\n\n![A red logo](logo.png)\n\nAfter.\n".utf8).write(to: URL(fileURLWithPath: path("pics.md")))
        let result = try CLI.run(["render", "--markdown-file", path("pics.md"), "--page", "a5", "--title", "Pics",
                                  "--pdf-standard", "ua-1", "-o", path("pics.pdf"), "--dump-layout", path("pics.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try tree(path("pics.pdf")) == ["Document", "  H1", "  P", "  Figure alt=A red logo", "  P", "outline: Pictures"])
        // The picture's paragraph is as tall as the picture (225 x 112.5 pt at 96 dpi).
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("pics.json")))) as! [String: Any]
        let heights = (json["lines"] as! [[String: Any]]).map { $0["height"] as! Double }
        #expect(heights.contains { abs($0 - 112.5) < 0.01 }, "\(heights)")

        try Data("Text.\n\n![](logo.png)\n".utf8).write(to: URL(fileURLWithPath: path("bare.md")))
        let refused = try CLI.run(["render", "--markdown-file", path("bare.md"), "--page", "a5", "--title", "T",
                                   "--pdf-standard", "ua-1", "-o", path("bare.pdf")])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("line 3: the picture logo.png has no alt text"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("bare.pdf")))
        // Without PDF/UA it is decoration, outside the structure.
        let plain = try CLI.run(["render", "--markdown-file", path("bare.md"), "--page", "a5", "-o", path("bare.pdf")])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try tree(path("bare.pdf")).filter { $0.contains("Figure") }.isEmpty)

        try Data("![gone](missing.png)\n".utf8).write(to: URL(fileURLWithPath: path("gone.md")))
        let missing = try CLI.run(["render", "--markdown-file", path("gone.md"), "--page", "a5", "-o", path("gone.pdf")])
        #expect(missing.status != 0 && missing.stderr.contains("line 1: the picture missing.png"), "\(missing.stderr)")
    }
    /// A tagged document's text pages are stored by Cairo and deflated once, by the filter that
    /// marks their Artifacts; a picture's stream and the fonts are still Cairo's to compress.
    /// So every Flate stream in the file is compressed (none starts with a stored block), and
    /// the words read back are the text's.
    @Test func everyStreamOfATaggedDocumentIsCompressed() throws {
        let logo = try CLI.run(["card", "-", "-o", path("logo.png")],
                               stdin: Array(##"{"size": "300x150", "padding": 0, "background": "#1565C0", "blocks": []}"##.utf8))
        #expect(logo.status == 0, "\(logo.stderr)")
        let words = (1...120).map { "Paragraph \($0) reads on." }.joined(separator: "\n\n")
        try Data("\(words)\n\n![A blue logo](logo.png)\n\nAfter the picture.\n".utf8).write(to: URL(fileURLWithPath: path("long.md")))
        let result = try CLI.run(["render", "--markdown-file", path("long.md"), "--page", "a5", "--page-numbers", "-o", path("long.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("long.pdf"))))
        func find(_ needle: String, from: Int) -> Int? {
            let bytes = Array(needle.utf8)
            return (from..<max(from, file.count - bytes.count)).first { file[$0..<($0 + bytes.count)].elementsEqual(bytes) }
                .map { $0 + bytes.count }
        }
        var streams = 0, stored = 0, from = 0
        while let at = find("/FlateDecode", from: from) {
            guard let data = find("stream\n", from: at), data + 3 <= file.count else { break }
            streams += 1
            if file[data] == 0x78, (file[data + 2] >> 1) & 3 == 0 { stored += 1 }
            from = data
        }
        #expect(streams >= 9 && stored == 0, "\(streams) Flate streams, \(stored) stored")
        let text = try runTool("/usr/bin/pdftotext", [path("long.pdf"), "-"])
        #expect(text.output.contains("Paragraph 120 reads on.") && text.output.contains("After the picture."), "\(text.output.suffix(200))")
    }
}
