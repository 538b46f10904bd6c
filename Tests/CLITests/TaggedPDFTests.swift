import Foundation
import TestSupport
import Testing

/// PDFs are tagged by default: a Document of paragraphs in drawing order, links after their
/// paragraph, the catalog's /Lang and /DisplayDocTitle (added as an incremental update).
@Suite struct TaggedPDFTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func raw(_ name: String) throws -> String { String(decoding: try Data(contentsOf: URL(fileURLWithPath: path(name))), as: UTF8.self) }

    @Test func aRenderIsTaggedWithItsLanguageAndTitle() throws {
        let result = try CLI.run(["render", "--markup", #"Read <a href="https://example.com/a">the guide</a> today."#,
                                  "--lang", "de", "--title", "Guide", "-o", path("t.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try runTool("/usr/bin/pdfinfo", [path("t.pdf")]).output
        #expect(info.contains("Tagged:          yes"), "\(info)")
        let structure = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("t.pdf")]).output
        let lines = structure.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "Document" && lines.contains("P (block)") && lines.contains("\"Read the guide today.\"")
                && lines.contains("Link (inline)"), "\(structure)")
        #expect(lines.firstIndex(of: "P (block)")! < lines.firstIndex(of: "Link (inline)")!)
        let bytes = try raw("t.pdf")
        #expect(bytes.contains("/Lang (de)") && bytes.contains("/DisplayDocTitle true") && bytes.contains("/Prev "))
        #expect(try qpdfCheck(path("t.pdf")))
    }

    @Test func cardsTakeTheirFirstTextBlocksLanguage() throws {
        let card = #"{"size": "300x200", "blocks": [{"type": "text", "text": "مرحبا", "lang": "ar"}, {"type": "text", "text": "two", "anchor": "bottom"}]}"#
        try Data(card.utf8).write(to: dir.appendingPathComponent("card.json"))
        #expect(try CLI.run(["card", path("card.json"), "-o", path("card.pdf")]).status == 0)
        let bytes = try raw("card.pdf")
        #expect(bytes.contains("/Lang (ar)") && !bytes.contains("/DisplayDocTitle"))
        let structure = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("card.pdf")]).output
        #expect(structure.components(separatedBy: "P (block)").count == 3, "\(structure)")
        #expect(try qpdfCheck(path("card.pdf")))
    }

    @Test func noTagsLeavesTheFileUntagged() throws {
        #expect(try CLI.run(["render", "--text", "plain", "--no-tags", "-o", path("n.pdf")]).status == 0)
        let info = try runTool("/usr/bin/pdfinfo", [path("n.pdf")]).output
        #expect(info.contains("Tagged:          no"), "\(info)")
        #expect(!(try raw("n.pdf")).contains("/Lang"))
        // A link still gets the structure Cairo needs for it, and the file stays whole.
        #expect(try CLI.run(["render", "--markup", #"<a href="https://x.org/">x</a>"#, "--no-tags", "-o", path("l.pdf")]).status == 0)
        #expect(try qpdfCheck(path("l.pdf")))
    }

    @Test func longDocumentsAreOneTreeAcrossPages() throws {
        let text = String(repeating: "Golden pages keep their reading order. ", count: 400)
        try Data(text.utf8).write(to: dir.appendingPathComponent("long.txt"))
        let result = try CLI.run(["render", "--text-file", path("long.txt"), "--page", "a5", "-o", path("long.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let structure = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("long.pdf")]).output
        let pages = try runTool("/usr/bin/pdfinfo", [path("long.pdf")]).output
        #expect(pages.contains("Pages:") && !pages.contains("Pages:           1\n"))
        #expect(structure.components(separatedBy: "Document").count == 2, "one Document element")
        #expect(structure.components(separatedBy: "P (block)").count > 3)
        #expect(try qpdfCheck(path("long.pdf")))
    }

    /// --pdf-standard ua-1: the XMP packet declares PDF/UA-1 with the (escaped) title; without a
    /// title the run is a one-line error and writes nothing.
    @Test func uaOneIsDeclaredAndItsNeedsChecked() throws {
        let result = try CLI.run(["render", "--text", "Accessible", "--title", "Q&A <1>", "--pdf-standard", "ua-1", "-o", path("ua.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try raw("ua.pdf")
        #expect(bytes.contains("<pdfuaid:part>1</pdfuaid:part>") && bytes.contains("Q&amp;A &lt;1&gt;") && bytes.contains("/Metadata "))
        #expect(try qpdfCheck(path("ua.pdf")))
        let untitled = try CLI.run(["render", "--text", "x", "--pdf-standard", "ua-1", "-o", path("no.pdf")])
        #expect(untitled.status == 3 && untitled.stderr.contains("needs a document title") && untitled.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: path("no.pdf")))
        let untagged = try CLI.run(["card", "-", "--title", "t", "--no-tags", "--pdf-standard", "ua-1", "-o", path("c.pdf")],
                                   stdin: Array(#"{"size": "100x100", "blocks": []}"#.utf8))
        #expect(untagged.status == 3 && untagged.stderr.contains("needs the structure tree"), "\(untagged.stderr)")
    }

    /// A card block's `role` makes it a heading; a page's paragraphs starting with "#" marks are
    /// headings of that level, the rest paragraphs, in reading order.
    @Test func headingsFromRolesAndMarks() throws {
        // An artifact block (a watermark) is in no element.
        let card = #"{"size": "400x300", "blocks": [{"type": "text", "text": "Big news", "role": "h1", "anchor": "top"}, {"type": "text", "text": "DRAFT", "role": "artifact", "anchor": "center"}, {"type": "text", "text": "The story.", "anchor": "bottom"}]}"#
        try Data(card.utf8).write(to: dir.appendingPathComponent("h.json"))
        #expect(try CLI.run(["card", path("h.json"), "-o", path("h.pdf")]).status == 0)
        let structure = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("h.pdf")]).output
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(structure == ["Document", "H1 (block)", "\"Big news\"", "P (block)", "\"The story.\""], "\(structure)")
        #expect(try qpdfCheck(path("h.pdf")))

        try Data("# One\nFirst body.\n## Two\nSecond body.\n#hashtag is no heading\n".utf8).write(to: dir.appendingPathComponent("h.txt"))
        let result = try CLI.run(["render", "--text-file", path("h.txt"), "--page", "a5", "-o", path("pages.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let tree = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("pages.pdf")]).output
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(tree == ["Document", "H1 (block)", "\"# One\"", "P (block)", "\"First body.\"", "H2 (block)", "\"## Two\"",
                         "P (block)", "\"Second body.\"", "P (block)", "\"#hashtag is no heading\""], "\(tree)")
        #expect(try qpdfCheck(path("pages.pdf")))

        let wrong = try CLI.run(["render", "--text", "x", "--role", "h7", "-o", path("w.pdf")])
        #expect(wrong.status == 3 && wrong.stderr.contains("'h7' is not one of p, h1") && wrong.stderr.split(separator: "\n").count == 1)
    }

    /// Mixed English, Arabic and Japanese: a P per paragraph, each in logical order; a line
    /// broken at a space keeps the space in the text (the words do not run together).
    @Test func mixedScriptsInLogicalOrderWithTheirSpaces() throws {
        let text = "English text here.\nمرحبا بالعالم، هذا نص عربي.\n日本語のテキストです。\nBack to English with العربية inside and more words to wrap"
        try Data(text.utf8).write(to: dir.appendingPathComponent("mix.txt"))
        let result = try CLI.run(["render", "--text-file", path("mix.txt"), "--width", "420", "--title", "Mixed", "--pdf-standard", "ua-1",
                                  "-o", path("mix.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let tree = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("mix.pdf")]).output
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(tree == ["Document", "P (block)", "\"English text here.\"", "P (block)", "\"مرحبا بالعالم، هذا نص عربي.\"",
                         "P (block)", "\"日本語のテキストです。\"", "P (block)", "\"Back to English with العربية inside and more words to wrap\""],
                "\(tree)")
        let lines = try runTool("/usr/bin/pdftotext", [path("mix.pdf"), "-"]).output.split(separator: "\n")
        #expect(lines.count > 4, "the last paragraph wraps: \(lines)")
        #expect(try qpdfCheck(path("mix.pdf")))
    }

    /// On pages, paragraphs starting with a bullet or a number are list items: an L of LI >
    /// LBody > P (an LBody holds elements only, so a nested list can follow the text), closed
    /// where the list ends.
    @Test func listsInLongTexts() throws {
        try Data("We need:\n- milk\n* bread\n2) eggs\nAfter the list.\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let result = try CLI.run(["render", "--text-file", path("list.txt"), "--page", "a5", "-o", path("list.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let tree = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("list.pdf")]).output
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let item = { (text: String) in ["LI (block)", "LBody (block)", "P (block)", "\"\(text)\""] }
        #expect(tree == ["Document", "P (block)", "\"We need:\"", "L (block)"] + item("- milk") + item("* bread") + item("2) eggs")
                + ["P (block)", "\"After the list.\""], "\(tree)")
        #expect(try qpdfCheck(path("list.pdf")))
    }
}
