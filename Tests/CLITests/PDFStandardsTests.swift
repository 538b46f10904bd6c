import Foundation
import TestSupport
import Testing

/// `--pdf-standard a-2b` (and `ua-1,a-2b`): what an archive checks, read back with pikepdf
/// (Debian's python3-pikepdf, which setup.sh installs for /usr/bin/python3).
@Suite struct PDFStandardsTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// pikepdf's view of a file as `key=value` lines: the XMP identification, the OutputIntent
    /// and its profile, the trailer ID, the dates both ways, every annotation's flags and
    /// description.
    func facts(_ file: String) throws -> [String: String] {
        let script = #"""
        import sys, pikepdf
        pdf = pikepdf.open(sys.argv[1])
        meta = pdf.open_metadata()
        out = {}
        get = lambda ns, key: str(meta.get("{%s}%s" % (ns, key)))
        out["pdfaid"] = get("http://www.aiim.org/pdfa/ns/id/", "part") + get("http://www.aiim.org/pdfa/ns/id/", "conformance")
        out["pdfuaid"] = get("http://www.aiim.org/pdfua/ns/id/", "part")
        out["title"] = get("http://purl.org/dc/elements/1.1/", "title")
        out["producer"] = get("http://ns.adobe.com/pdf/1.3/", "Producer") + " | " + str(pdf.docinfo.get("/Producer"))
        out["created"] = get("http://ns.adobe.com/xap/1.0/", "CreateDate") + " | " + str(pdf.docinfo.get("/CreationDate"))
        intents = pdf.Root.get("/OutputIntents")
        if intents is not None:
            intent = intents[0]
            profile = intent.DestOutputProfile
            data = profile.read_bytes()
            out["intent"] = "%s %s N=%d acsp=%s size=%s" % (intent.S, intent.OutputConditionIdentifier, profile.N,
                                                            data[36:40] == b"acsp", int.from_bytes(data[0:4], "big") == len(data))
        out["id"] = str(len(pdf.trailer.ID)) + " " + str(len(bytes(pdf.trailer.ID[0])))
        out["annots"] = ";".join("F=%s Contents=%s" % (a.get("/F"), a.get("/Contents")) for page in pdf.pages for a in page.get("/Annots", []))
        for k, v in out.items(): print(k + "=" + v)
        """#
        let result = try runTool("/usr/bin/python3", ["-c", script, file])
        #expect(result.status == 0, "pikepdf could not read \(file)")
        var facts: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { facts[String(parts[0])] = String(parts[1]) }
        }
        return facts
    }

    @Test func a2bCarriesIdentificationOutputIntentIDAndPrintableLinks() throws {
        let result = try CLI.run(["render", "--markup", #"Read <a href="https://example.com/a">the guide</a> or <a href="https://example.org">ünïcode</a>."#,
                                  "--title", "Guide", "--pdf-standard", "a-2b", "-o", path("a.pdf")],
                                 environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(result.status == 0, "\(result.stderr)")
        let f = try facts(path("a.pdf"))
        #expect(f["pdfaid"] == "2B" && f["pdfuaid"] == "None", "\(f)")
        #expect(f["intent"] == "/GTS_PDFA1 sRGB IEC61966-2.1 N=3 acsp=True size=True", "\(f)")
        #expect(f["id"] == "2 16", "\(f)")
        #expect(f["title"] == "Guide")
        // XMP repeats the information dictionary: the same producer and the same instant.
        let producer = f["producer"]!.components(separatedBy: " | ")
        #expect(producer.count == 2 && producer[0] == producer[1] && producer[0].hasPrefix("cairo"), "\(f)")
        #expect(f["created"] == "2023-11-14T22:13:20Z | D:20231114221320Z", "\(f)")
        #expect(f["annots"] == "F=4 Contents=the guide;F=4 Contents=ünïcode", "\(f)")
        // Every font embedded.
        let fonts = try runTool("/usr/bin/pdffonts", [path("a.pdf")]).output.split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty && fonts.allSatisfy { $0.contains(" yes ") }, "\(fonts)")
        #expect(try qpdfCheck(path("a.pdf")))
        // The same input, the same bytes (the ID is a digest, not a clock).
        let again = try CLI.run(["render", "--markup", #"Read <a href="https://example.com/a">the guide</a> or <a href="https://example.org">ünïcode</a>."#,
                                 "--title", "Guide", "--pdf-standard", "a-2b", "-o", path("b.pdf")],
                                environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("a.pdf"))) == Data(contentsOf: URL(fileURLWithPath: path("b.pdf"))))
    }

    @Test func bothStandardsAtOnceAndPagesToo() throws {
        let text = (1...60).map { "# Part \($0)\nGolden pages keep their reading order, page after page, with a link to the archive." }
            .joined(separator: "\n")
        try Data(text.utf8).write(to: dir.appendingPathComponent("long.txt"))
        let result = try CLI.run(["render", "--text-file", path("long.txt"), "--page", "a5", "--page-numbers", "--title", "Pages",
                                  "--pdf-standard", "ua-1,a-2b", "-o", path("p.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let f = try facts(path("p.pdf"))
        #expect(f["pdfaid"] == "2B" && f["pdfuaid"] == "1" && f["intent"]?.hasPrefix("/GTS_PDFA1") == true, "\(f)")
        // PDF/A-2 knows pdfuaid only through an extension schema in the packet.
        let bytes = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path("p.pdf"))), as: UTF8.self)
        #expect(bytes.contains("<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>"))
        #expect(try qpdfCheck(path("p.pdf")))
        // An unknown name is one line and exit 3; nothing is written.
        let wrong = try CLI.run(["render", "--text", "x", "--pdf-standard", "a-3b", "-o", path("w.pdf")])
        #expect(wrong.status == 3 && wrong.stderr.contains("'a-3b' is not ua-1, a-2b") && wrong.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: path("w.pdf")))
    }

    /// Links get a description when the file is tagged, standard or not (PDF/UA's rule for
    /// annotations); a restricted render's link is described by its visible words only.
    @Test func linksAreDescribedByTheirVisibleText() throws {
        let result = try CLI.run(["render", "--markup", #"<a href="https://example.com/a">the shown part and the hidden part</a> now"#,
                                  "--width", "300", "--visible-lines", "1", "-o", path("r.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let annots = try facts(path("r.pdf"))["annots"] ?? ""
        #expect(annots == "F=4 Contents=the shown", "\(annots)")
    }

    /// A card's `pdf` key holds the same options: a title and a standard travel with the card
    /// (a template's title may be a variable); a wrong key or an unmet need names its path.
    @Test func aCardCarriesItsPDFSettings() throws {
        let card = #"{"size": "300x200", "pdf": {"title": "{{name}}'s card", "pdf-standard": "ua-1,a-2b"}, "blocks": [{"type": "text", "text": "Hello {{name}}"}]}"#
        try Data(card.utf8).write(to: dir.appendingPathComponent("c.json"))
        let result = try CLI.run(["card", path("c.json"), "--var", "name=Ada", "-o", path("c.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let f = try facts(path("c.pdf"))
        #expect(f["pdfaid"] == "2B" && f["pdfuaid"] == "1" && f["title"] == "Ada's card", "\(f)")
        let untitled = #"{"size": "300x200", "pdf": {"pdf-standard": "ua-1"}, "blocks": []}"#
        let refused = try CLI.run(["card", "-", "-o", path("u.pdf")], stdin: Array(untitled.utf8))
        #expect(refused.status == 3 && refused.stderr.contains("pdf.pdf-standard") && refused.stderr.contains("needs a document title"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("u.pdf")))
        // The flag gives what the card lacks.
        #expect(try CLI.run(["card", "-", "--title", "Given", "-o", path("u.pdf")], stdin: Array(untitled.utf8)).status == 0)
        let typo = try CLI.run(["card", "-", "-o", path("t.pdf")], stdin: Array(#"{"pdf": {"tilte": "x"}, "blocks": []}"#.utf8))
        #expect(typo.status == 3 && typo.stderr.contains("pdf.tilte: unknown key"), "\(typo.stderr)")
    }

    /// A picture with `alt` is a Figure with that alternative text; one without is no element
    /// (decoration), and PDF/UA-1 refuses it, naming the block.
    @Test func picturesWithAltAreFigures() throws {
        let logo = try CLI.run(["card", "-", "-o", path("logo.png")], stdin: Array(##"{"size": "40x40", "padding": 0, "background": "#C62828", "blocks": []}"##.utf8))
        #expect(logo.status == 0, "\(logo.stderr)")
        let card = #"{"size": "400x300", "blocks": [{"type": "image", "src": "logo.png", "alt": "The red logo", "anchor": "top"}, {"type": "text", "text": "Caption", "anchor": "bottom"}, {"type": "image", "src": "logo.png", "width": 10, "anchor": "bottom-right"}]}"#
        try Data(card.utf8).write(to: dir.appendingPathComponent("fig.json"))
        let result = try CLI.run(["card", path("fig.json"), "--title", "Logo", "-o", path("fig.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let script = #"""
        import sys, pikepdf
        pdf = pikepdf.open(sys.argv[1])
        for o in pdf.objects:
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/StructElem":
                print(str(o.get("/S")) + " " + str(o.get("/Alt")))
        """#
        let elements = try runTool("/usr/bin/python3", ["-c", script, path("fig.pdf")]).output.split(separator: "\n").sorted()
        #expect(elements == ["/Document None", "/Figure The red logo", "/P None"], "\(elements)")
        #expect(try qpdfCheck(path("fig.pdf")))
        let refused = try CLI.run(["card", path("fig.json"), "--title", "Logo", "--pdf-standard", "ua-1", "-o", path("ua.pdf")])
        #expect(refused.status == 3 && refused.stderr.contains("blocks[2].alt: PDF/UA-1 needs alternative text"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("ua.pdf")))
    }

    /// A block whose language is not the document's says so on its element (/Lang).
    @Test func elementsCarryTheirLanguage() throws {
        let card = #"{"size": "500x300", "blocks": [{"type": "text", "text": "Hello", "lang": "en", "anchor": "top"}, {"type": "text", "text": "مرحبا بالعالم", "lang": "ar", "anchor": "bottom"}]}"#
        try Data(card.utf8).write(to: dir.appendingPathComponent("lang.json"))
        #expect(try CLI.run(["card", path("lang.json"), "--title", "Two", "--pdf-standard", "ua-1", "-o", path("lang.pdf")]).status == 0)
        let script = #"""
        import sys, pikepdf
        pdf = pikepdf.open(sys.argv[1])
        print("document " + str(pdf.Root.Lang))
        for o in pdf.objects:
            if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/StructElem":
                print(str(o.get("/S")) + " " + str(o.get("/Lang")))
        """#
        let lines = try runTool("/usr/bin/python3", ["-c", script, path("lang.pdf")]).output.split(separator: "\n").sorted()
        #expect(lines == ["/Document None", "/P None", "/P ar", "document en"], "\(lines)")
    }
}
