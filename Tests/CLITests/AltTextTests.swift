import Foundation
import TestSupport
import Testing

/// Alt text in every raster output (issue 50): the card's visible text in reading order (never
/// a restricted line), read back by Pillow and from the XMP packets, not by our own code.
@Suite struct AltTextTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// What Pillow finds: PNG Description, its XMP, JPEG EXIF 270 and APP1 XMP, WebP XMP.
    private func metadata(_ file: String) throws -> String {
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            out = []
            if im.format == 'PNG':
                out += [im.info.get('Description', ''), im.info.get('XML:com.adobe.xmp', '')]
            elif im.format == 'JPEG':
                out.append(str(im.getexif().get(270, '')))
                out += [data.decode('utf-8', 'replace') for kind, data in im.applist if kind == 'APP1' and data.startswith(b'http://ns.adobe.com/xap/1.0/')]
            elif im.format == 'WEBP':
                out.append(im.info.get('xmp', b'').decode('utf-8'))
            print('\\n---\\n'.join(out))
            """
        let result = try runTool("/usr/bin/python3", ["-c", script, file])
        #expect(result.status == 0, "\(result.output)")
        return result.output
    }

    @Test func everyRasterFormatCarriesTheVisibleTextAndNotTheHidden() throws {
        let spec = #"{"size": "600x400", "blocks": [{"type": "text", "text": "Notes & co.\nSecret salary figures", "visible-lines": 1}, {"type": "text", "text": "Café ✓"}]}"#
        try Data(spec.utf8).write(to: dir.appendingPathComponent("card.json"))
        for ext in ["png", "jpg", "webp"] {
            let result = try CLI.run(["card", path("card.json"), "-o", path("card.\(ext)")])
            #expect(result.status == 0, "\(ext): \(result.stderr)")
            let found = try metadata(path("card.\(ext)"))
            #expect(found.contains("Notes &amp; co.") || found.contains("Notes & co."), "\(ext): \(found)")
            #expect(found.contains("Café ✓"), "\(ext): \(found)")
            #expect(found.contains("<dc:description>"), "\(ext): no XMP")
            #expect(!found.contains("Secret") && !found.contains("salary"), "\(ext) leaks the hidden line: \(found)")
        }
        // PNG's own field is the plain text, blocks in reading order.
        #expect(try metadata(path("card.png")).hasPrefix("Notes & co.\nCafé ✓\n"))
        // AVIF: the XMP packet in the file (libavif writes it as the image's metadata item).
        let avif = try CLI.run(["card", path("card.json"), "-o", path("card.avif")])
        #expect(avif.status == 0, "\(avif.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path("card.avif")))
        #expect(String(decoding: bytes, as: UTF8.self).contains("<rdf:li xml:lang=\"x-default\">Notes &amp; co.&#10;Café ✓</rdf:li>"))
        // The dump says it too.
        let dump = try CLI.run(["card", path("card.json"), "-o", path("dump.png"), "--dump-layout", "-"])
        let json = try JSONSerialization.jsonObject(with: Data(dump.stdout)) as? [String: Any]
        #expect(json?["alt"] as? String == "Notes & co.\nCafé ✓")
    }

    /// A stack's children are blocks of the card too: their text was missing from the alt
    /// (it was read from the top-level blocks of the layout report). The same alt whether or
    /// not the report is asked for (a render that does not ask builds none).
    @Test func aStacksChildrenAreInTheAltText() throws {
        let spec = #"{"size": "500x300", "blocks": [{"type": "stack", "blocks": [{"type": "text", "text": "Inside a stack"}, {"type": "image", "src": "\#(Fixtures.repo.path)/examples/assets/check-logo.svg", "width": 40, "alt": "A check mark"}]}, {"type": "text", "text": "Top level", "anchor": "bottom"}]}"#
        try Data(spec.utf8).write(to: dir.appendingPathComponent("stack.json"))
        let plain = try CLI.run(["card", path("stack.json"), "-o", path("stack.png")])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try metadata(path("stack.png")).hasPrefix("Inside a stack\nA check mark\nTop level\n"))
        let dumped = try CLI.run(["card", path("stack.json"), "-o", path("stack2.png"), "--dump-layout", "-"])
        let json = try JSONSerialization.jsonObject(with: Data(dumped.stdout)) as? [String: Any]
        #expect(json?["alt"] as? String == "Inside a stack\nA check mark\nTop level")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("stack.png"))) == Data(contentsOf: URL(fileURLWithPath: path("stack2.png"))))
    }

    @Test func theBatchReportListsEachCardsAltText() throws {
        try Data(#"{"size": "400x200", "blocks": [{"type": "text", "text": "Hello {{name}}"}]}"#.utf8).write(to: dir.appendingPathComponent("t.json"))
        try Data("name\nAna\nJosé\n".utf8).write(to: dir.appendingPathComponent("rows.csv"))
        let result = try CLI.run(["batch", "--template", path("t.json"), "--data", path("rows.csv"), "--output", "{{name}}.png",
                                  "--out-dir", path("out"), "--report", path("report.jsonl"), "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: path("report.jsonl"), encoding: .utf8).split(separator: "\n")
        let alts = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.compactMap { $0?["alt"] as? String }
        #expect(alts.sorted() == ["Hello Ana", "Hello José"])
        #expect(try metadata(path("out/José.png")).hasPrefix("Hello José\n"))
    }

    @Test func altAndNoAltOverrideAndJPEGKeepsASCIIInEXIF() throws {
        let given = try CLI.run(["render", "--text", "Hello", "--alt", "A wave hello", "-o", path("given.jpg")])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(try metadata(path("given.jpg")).hasPrefix("A wave hello\n---\n"))
        let none = try CLI.run(["render", "--text", "Hello", "--no-alt", "-o", path("none.png")])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(try metadata(path("none.png")).trimmingCharacters(in: .whitespacesAndNewlines) == "---")
        // Control characters never reach a file (a NUL would end PNG's text field early; an
        // argument cannot carry one, so U+0001 and CR stand for the rest).
        let controls = try CLI.run(["render", "--text", "Hello", "--alt", "Line\u{1}one\rtwo\nthree", "-o", path("controls.png")])
        #expect(controls.status == 0, "\(controls.stderr)")
        #expect(try metadata(path("controls.png")).hasPrefix("Lineonetwo\nthree\n---\n"))
        // Markup-ish text cannot break the XMP packet.
        let hostile = try CLI.run(["render", "--text", "</rdf:li><x>\u{0}", "-o", path("hostile.webp")])
        #expect(hostile.status == 0 || hostile.status == 3)
        if hostile.status == 0 { #expect(try !metadata(path("hostile.webp")).contains("</rdf:li><x>")) }
    }
}
