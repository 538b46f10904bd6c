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
}
