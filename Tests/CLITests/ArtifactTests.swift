import Foundation
import TestSupport
import Testing

/// In a tagged PDF everything painted is in the structure tree or an Artifact (PDF/UA-1
/// 7.1): backgrounds, highlight shapes, underlines, a picture without alt, page numbers and
/// headers are Artifacts. Read back with pikepdf's own content parser, page by page.
@Suite struct ArtifactTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func run(_ arguments: [String], stdin: String? = nil) throws {
        let result = try CLI.run(arguments, stdin: stdin.map { Array($0.utf8) })
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    /// Per page: painting operators in no marked content, in an Artifact, in structure
    /// content (an MCID), and Artifacts opened inside structure content.
    func painting(_ file: String) throws -> [[Int]] {
        let script = #"""
        import sys, pikepdf
        pdf = pikepdf.open(sys.argv[1])
        paint = {"f", "F", "f*", "S", "s", "B", "B*", "b", "b*", "Tj", "TJ", "'", '"', "Do", "sh"}
        for page in pdf.pages:
            stack, loose, artifact, structure, nested = [], 0, 0, 0, 0
            for operands, op in pikepdf.parse_content_stream(page):
                op = str(op)
                if op in ("BDC", "BMC"):
                    if str(operands[0]) == "/Artifact":
                        nested += "S" in stack
                        stack.append("A")
                    elif op == "BDC" and isinstance(operands[1], pikepdf.Dictionary) and "/MCID" in operands[1]:
                        stack.append("S")
                    else:
                        stack.append("O")
                elif op == "EMC":
                    stack.pop()
                elif op in paint:
                    if "A" in stack: artifact += 1
                    elif "S" in stack: structure += 1
                    else: loose += 1
            print(loose, artifact, structure, nested)
        """#
        let result = try runTool("/usr/bin/python3", ["-c", script, file])
        #expect(result.status == 0, "pikepdf could not read \(file)")
        return result.output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
    }

    @Test func aCardsDecorationsAreArtifacts() throws {
        try run(["card", "-", "-o", path("logo.png")], stdin: ##"{"size": "40x40", "padding": 0, "background": "#C62828", "blocks": []}"##)
        let card = #"""
        {"size": "600x400", "background": "#1E3C72", "color": "white",
         "blocks": [{"type": "text", "text": "Quarterly review", "role": "h1", "highlight": "#F9A825", "anchor": "top"},
                    {"type": "text", "markup": "Read <a href=\"https://example.com/r\">the report</a>.", "anchor": "center"},
                    {"type": "image", "src": "logo.png", "anchor": "bottom-right"}]}
        """#
        try Data(card.utf8).write(to: dir.appendingPathComponent("card.json"))
        try run(["card", path("card.json"), "-o", path("card.pdf")])
        let pages = try painting(path("card.pdf"))
        // The background, the highlight and the logo are Artifacts;
        // the glyphs are structure; nothing is painted outside both.
        #expect(pages.count == 1 && pages[0][0] == 0 && pages[0][1] >= 3 && pages[0][2] >= 2 && pages[0][3] == 0, "\(pages)")
        #expect(try qpdfCheck(path("card.pdf")))
        let structure = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("card.pdf")]).output
        #expect(structure.contains("\"Quarterly review\"") && structure.contains("Link"), "\(structure)")

        // Untagged: the stream is Cairo's, with no Artifact.
        try run(["card", path("card.json"), "--no-tags", "-o", path("plain.pdf")])
        let plain = try painting(path("plain.pdf"))
        #expect(plain.count == 1 && plain[0][0] > 0 && plain[0][1] == 0 && plain[0][2] == 0, "\(plain)")
    }

    @Test func pageNumbersAndHeadersAreArtifactsOnEveryPage() throws {
        let text = (1...40).map { "Paragraph \($0) keeps its words in the structure while the page furniture stays out of it." }
            .joined(separator: "\n")
        try Data(text.utf8).write(to: dir.appendingPathComponent("long.txt"))
        try run(["render", "--text-file", path("long.txt"), "--page", "a5", "--page-number-format", "folio {page} of {pages}",
                     "--header", "Running head", "--highlight", "#FFEE58", "--title", "Pages", "--pdf-standard", "ua-1",
                     "-o", path("pages.pdf")])
        let pages = try painting(path("pages.pdf"))
        #expect(pages.count > 2, "\(pages)")
        for page in pages { #expect(page.count == 4 && page[0] == 0 && page[1] >= 2 && page[2] > 0 && page[3] == 0, "\(pages)") }
        let structure = try runTool("/usr/bin/pdfinfo", ["-struct-text", path("pages.pdf")]).output
        #expect(structure.contains("Paragraph 40 keeps") && !structure.contains("folio") && !structure.contains("Running head"), "\(structure)")
        // The text layer still holds them (a reader's copy and search see the page furniture).
        let words = try runTool("/usr/bin/pdftotext", [path("pages.pdf"), "-"]).output
        #expect(words.contains("folio 1 of") && words.contains("Running head"))
    }
}
