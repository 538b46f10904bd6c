import Foundation
import TestSupport
import Testing

/// A tagged PDF's structure text is its visible text (issue 50), by two readers nobody on the
/// team wrote the PDF side of: poppler (`pdfinfo -struct-text`) and a pikepdf walk of the
/// structure tree and its marked content (Fixtures/structure_text.py).
@Suite struct StructureTextTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Each reader's paragraph texts.
    private func readers(_ file: String) throws -> (poppler: [String], pikepdf: [String]) {
        let poppler = try runTool("/usr/bin/pdfinfo", ["-struct-text", file]).output.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("\"") && $0.hasSuffix("\"") && $0.count >= 2 }
            .map { String($0.dropFirst().dropLast()) }
        let script = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/structure_text.py").path
        let walked = try runTool("/usr/bin/python3", [script, file])
        #expect(walked.status == 0, "\(walked.output)")
        let pikepdf = walked.output.split(separator: "\n").compactMap { $0.split(separator: "\t", maxSplits: 1).last.map(String.init) }
        return (poppler, pikepdf)
    }

    @Test(arguments: [
        ("ligatures", ["--text", "We read first, then fly off to find the office."], "We read first, then fly off to find the office."),
        ("restricted", ["--text", "Notes for the team, read first.\nThe salary figures.", "--visible-lines", "1"], "Notes for the team, read first."),
        ("bidi", ["--text", "Hello مرحبا بالعالم world."], "Hello مرحبا بالعالم world."),
        ("bidi-rtl", ["--text", "مرحبا 🎉 بالعالم", "--direction", "rtl"], "مرحبا 🎉 بالعالم"),
        // Colour emoji are pictures; the text over them is in blank glyphs mapped one per cluster.
        ("emoji", ["--text", "Party 🎉 time 👩‍👩‍👧 done 👍🏽."], "Party 🎉 time 👩‍👩‍👧 done 👍🏽."),
        ("combining", ["--text", "Cafe\u{301} n\u{303}o q\u{323}\u{302}"], "Cafe\u{301} n\u{303}o q\u{323}\u{302}"),
        // Words cut at the line's end: the hyphen is drawn, the word is read once and whole.
        ("hyphenated", ["--text", "Incomprehensibilities extraordinarily", "--width", "200", "--size", "30"],
         "Incomprehensibilities extraordinarily"),
        // A weight between the named instances is drawn as outlines with a text layer over them.
        ("variable-weight", ["--text", "Bold office words", "--font", "Inter", "--weight", "650"], "Bold office words"),
        ("letter-spaced", ["--text", "Letter spaced office", "--letter-spacing", "3"], "Letter spaced office"),
        // Lines joined by the space they broke at, stretched or not.
        ("wrapped", ["--text", String(repeating: "Justified text that wraps across the lines. ", count: 3).trimmingCharacters(in: .whitespaces)],
         String(repeating: "Justified text that wraps across the lines. ", count: 3).trimmingCharacters(in: .whitespaces)),
        ("justified", ["--text", String(repeating: "Justified text that wraps across the lines. ", count: 3).trimmingCharacters(in: .whitespaces),
                       "--align", "justify"],
         String(repeating: "Justified text that wraps across the lines. ", count: 3).trimmingCharacters(in: .whitespaces)),
    ])
    func bothReadersGetTheVisibleText(name: String, arguments: [String], expected: String) throws {
        let result = try CLI.run(["render"] + arguments + ["--page", "a5", "--title", "T", "-o", path("\(name).pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let (poppler, pikepdf) = try readers(path("\(name).pdf"))
        #expect(poppler == [expected], "poppler: \(poppler)")
        #expect(pikepdf == [expected], "pikepdf: \(pikepdf)")
        #expect(try qpdfCheck(path("\(name).pdf")))
    }

    /// Blank glyphs at a whole-pixel position were dropped by Cairo (a glyph without ink
    /// measures as an empty box there): a card whose text starts with an emoji or a synthetic
    /// bold lost that text.
    @Test(arguments: [["--text", "🎉 first"], ["--markup", "<b>漢</b> first"]])
    func invisibleTextAtTheCardsEdgeIsKept(arguments: [String]) throws {
        let file = path("edge-\(arguments[0]).pdf")
        let result = try CLI.run(["render"] + arguments + ["-o", file])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try runTool("/usr/bin/pdftotext", [file, "-"]).output
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == arguments[1].replacingOccurrences(of: "<b>", with: "")
                    .replacingOccurrences(of: "</b>", with: ""), "\(text)")
    }
}
