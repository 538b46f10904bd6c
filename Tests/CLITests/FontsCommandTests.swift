import Foundation
import TestSupport
import Testing

private let webfonts = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/webfonts")

/// Web fonts wherever a font file is accepted, and `hlrender fonts`.
@Suite struct FontsCommandTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The same subset as TTF, WOFF and WOFF2: the same pixels, byte for byte, and the same
    /// extractable text in a PDF.
    @Test func webFontsRenderTheGlyphsOfTheirTTF() throws {
        var pngs: [Data] = []
        for ext in ["ttf", "woff", "woff2"] {
            let font = webfonts.appendingPathComponent("NotoSansLatin.\(ext)").path
            let result = try CLI.run(["render", "--text", "Web fonts: Hamburgefonstiv 0123 {fi} office", "--font", font,
                                      "--size", "40", "-o", path("\(ext).png")])
            #expect(result.status == 0, "\(ext): \(result.stderr)")
            pngs.append(try Data(contentsOf: URL(fileURLWithPath: path("\(ext).png"))))
            let pdf = try CLI.run(["render", "--text", "office hours", "--font", font, "-o", path("\(ext).pdf")])
            #expect(pdf.status == 0, "\(ext): \(pdf.stderr)")
            #expect(try pdfText(Array(Data(contentsOf: URL(fileURLWithPath: path("\(ext).pdf"))))).contains("office hours"), "\(ext)")
        }
        #expect(pngs[0] == pngs[1] && pngs[0] == pngs[2], "the WOFF or WOFF2 render differs from the TTF's")
    }

    /// In a card (a path beside the spec) and in a --font-dir folder, where `fonts` lists it.
    @Test func webFontsInCardsAndFontFolders() throws {
        let folder = dir.appendingPathComponent("brand")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: webfonts.appendingPathComponent("NotoSansLatin.woff2"),
                                         to: folder.appendingPathComponent("Brand.woff2"))
        let spec = #"{"size": "600x200", "blocks": [{"type": "text", "text": "Card in WOFF2", "font": "Brand.woff2"}]}"#
        try Data(spec.utf8).write(to: folder.appendingPathComponent("card.json"))
        let card = try CLI.run(["card", folder.appendingPathComponent("card.json").path, "-o", path("card.png"), "--dump-layout", "-"])
        #expect(card.status == 0, "\(card.stderr)")
        #expect(String(decoding: card.stdout, as: UTF8.self).contains("\"Noto Sans\""))
        #expect(FileManager.default.fileExists(atPath: path("card.png")))
        let listed = try CLI.run(["fonts", "--font-dir", folder.path, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(listed.stdout)) as! [String: Any]
        let faces = (json["families"] as! [[String: Any]]).flatMap { $0["faces"] as! [[String: Any]] }
        let brand = faces.first { ($0["file"] as! String).hasSuffix("Brand.woff2") }
        #expect(brand?["source"] as? String == "font-dir", "\(faces)")
    }

    /// A damaged web font: one line naming the file, exit 3, no output.
    @Test func aDamagedWebFontIsRefused() throws {
        var bytes = try Data(contentsOf: webfonts.appendingPathComponent("NotoSansLatin.woff2"))
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: URL(fileURLWithPath: path("cut.woff2")))
        try Data("wOF2".utf8 + [UInt8](repeating: 7, count: 200)).write(to: URL(fileURLWithPath: path("junk.woff2")))
        for name in ["cut.woff2", "junk.woff2"] {
            let result = try CLI.run(["render", "--text", "x", "--font", path(name), "-o", path("x.png")])
            #expect(result.status == 3 && result.stderr.contains(name), "\(name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: path("x.png")))
    }

    /// The pinned families with their source, styles and a variable font's axes.
    @Test func fontsListsFamiliesSourcesStylesAndAxes() throws {
        let listed = try CLI.run(["fonts", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(listed.stdout)) as! [String: Any]
        let families = json["families"] as! [[String: Any]]
        let byName = Dictionary(families.map { ($0["family"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
        let noto = try #require(byName["Noto Sans"])
        #expect(noto["source"] as? String == "pinned")
        let styles = (noto["faces"] as! [[String: Any]]).map { "\($0["style"]!) \($0["weight"]!)" }
        #expect(styles == ["Regular 400", "Bold 700"], "\(styles)")
        let inter = try #require(byName["Inter"])
        let axes = inter["axes"] as! [[String: Any]]
        #expect(axes.count == 1 && axes[0]["tag"] as? String == "wght" && axes[0]["min"] as? Double == 100
                && axes[0]["max"] as? Double == 900, "\(axes)")
        #expect(families.allSatisfy { $0["source"] as? String == "pinned" }, "--no-system-fonts lists only pinned fonts")
        let text = try CLI.run(["fonts", "mono"])
        #expect(String(decoding: text.stdout, as: UTF8.self) == "Noto Sans Mono  pinned    Regular 400, Bold 700\n")
    }

    @Test func anUnknownFamilyGetsTheClosestNames() throws {
        let result = try CLI.run(["fonts", "Noto Sanz"])
        #expect(result.status == 3)
        #expect(result.stderr == "hlrender: error: no font family matches 'Noto Sanz'; did you mean 'Noto Sans'?\n", "\(result.stderr)")
        let render = try CLI.run(["render", "--text", "x", "--font", "Noto Sanz", "-o", path("x.png")])
        #expect(render.status == 3 && render.stderr.contains("did you mean 'Noto Sans'"), "\(render.stderr)")
    }
}
