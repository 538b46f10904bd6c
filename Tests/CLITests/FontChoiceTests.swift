import Foundation
import TestSupport
import Testing

/// Fonts as users name them (issue 49), from every front end: the CLI's font description and
/// --weight, a card's keys and markup spans draw Inter at wght 700; Fontconfig's substitute for
/// an alias, said on stderr, and refused with --font-strict.
@Suite struct FontChoiceTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    private func png(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// The faces of every run of a dump, as "family|variations|synthetic".
    private func faces(_ dump: [UInt8]) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(dump)) as? [String: Any]
        let blocks = (json?["blocks"] as? [[String: Any]]) ?? [json ?? [:]]
        return blocks.flatMap { ($0["lines"] as? [[String: Any]]) ?? [] }.flatMap { ($0["runs"] as? [[String: Any]]) ?? [] }.map { run in
            let font = run["font"] as? [String: Any] ?? [:]
            return "\(font["family"] ?? "")|\(font["variations"] ?? "")|\((font["synthetic"] as? [String])?.joined(separator: ",") ?? "")"
        }
    }

    @Test func interBoldFromEveryFrontEndIsTheAxisAt700() throws {
        let text = "Bold Inter"
        let byHand = try CLI.run(["render", "--text", text, "--font", "Inter", "--variations", "wght=700", "-o", path("hand.png")])
        #expect(byHand.status == 0, "\(byHand.stderr)")
        let ways: [(String, [String])] = [
            ("description", ["render", "--text", text, "--font", "Inter Bold"]),
            ("weight", ["render", "--text", text, "--font", "Inter", "--weight", "700"]),
            ("markup", ["render", "--markup", "<span font_family=\"Inter\" font_weight=\"bold\">\(text)</span>"]),
        ]
        for (name, arguments) in ways {
            let result = try CLI.run(arguments + ["-o", path("\(name).png"), "--dump-layout", path("\(name).json")])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(try faces(Array(Data(contentsOf: URL(fileURLWithPath: path("\(name).json"))))) == ["Inter|wght=700|"], "\(name)")
            #expect(try png("\(name).png") == png("hand.png"), "\(name): not the pixels of --variations wght=700")
            #expect(result.stderr.isEmpty, "\(name): \(result.stderr)")
        }
        let spec = #"{"size": "600x200", "blocks": [{"type": "text", "text": "Bold Inter", "font": "Inter", "weight": 700}]}"#
        try Data(spec.utf8).write(to: dir.appendingPathComponent("card.json"))
        let card = try CLI.run(["card", path("card.json"), "-o", path("card.png"), "--dump-layout", "-"])
        #expect(card.status == 0, "\(card.stderr)")
        #expect(try faces(card.stdout) == ["Inter|wght=700|"])
    }

    @Test func cjkBoldIsTheBoldFaceOrAFlaggedSyntheticOne() throws {
        let result = try CLI.run(["render", "--markup", "<b>日本漢</b>", "-o", path("cjk.png"), "--dump-layout", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try faces(result.stdout) == ["Noto Sans CJK JP||", "Noto Sans CJK JP||bold"])
        #expect(result.stderr == "hlrender: warning: 'Noto Sans CJK JP' has no face as bold as asked: drawn with synthetic bold\n")
        // The synthetic bold draws heavier than the regular face: more ink.
        let plain = try CLI.run(["render", "--text", "漢", "-o", path("plain.png"), "--background", "white"])
        let heavy = try CLI.run(["render", "--markup", "<b>漢</b>", "-o", path("heavy.png"), "--background", "white"])
        #expect(plain.status == 0 && heavy.status == 0)
        #expect(try Double(ink(path("heavy.png"))) > Double(ink(path("plain.png"))) * 1.2)
    }

    /// A PDF draws a synthetic bold as outlines; its text stays extractable (poppler reads it).
    @Test func aSyntheticBoldInAPDFKeepsItsText() throws {
        let result = try CLI.run(["render", "--markup", "<b>日本漢 Bold</b> office", "-o", path("bold.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try pdfText(Array(Data(contentsOf: URL(fileURLWithPath: path("bold.pdf")))))
        #expect(text.contains("日本漢 Bold office"), "\(text)")
    }

    @Test func anAliasTakesFontconfigsSubstituteUnlessStrict() throws {
        // The reference: fc-match over the same fonts (the pinned folder, then the system's).
        let config = dir.appendingPathComponent("fonts.conf")
        try Data(("<?xml version=\"1.0\"?><fontconfig><dir>\(Fixtures.fonts)</dir>"
                  + "<include ignore_missing=\"yes\">/etc/fonts/fonts.conf</include></fontconfig>").utf8).write(to: config)
        for alias in ["Helvetica", "Times New Roman", "Courier"] {
            let expected = try runTool("/usr/bin/env", ["FONTCONFIG_FILE=\(config.path)", "fc-match", "-f", "%{family[0]}", "\(alias):lang=en"])
            let result = try CLI.run(["render", "--text", "Alias", "--font", alias, "-o", path("alias.png"), "--dump-layout", "-"],
                                     pinnedFonts: false)
            #expect(result.status == 0, "\(alias): \(result.stderr)")
            #expect(try faces(result.stdout).first?.hasPrefix(expected.output + "|") == true, "\(alias): fc-match says \(expected.output)")
            #expect(result.stderr == "hlrender: warning: font family '\(alias)' is not installed: using '\(expected.output)', Fontconfig's substitute; --font-strict refuses it\n")
            let strict = try CLI.run(["render", "--text", "Alias", "--font", alias, "--font-strict", "-o", path("strict.png")], pinnedFonts: false)
            #expect(strict.status == 3)
            #expect(strict.stderr.hasPrefix("hlrender: error: unknown font family '\(alias)'"), "\(strict.stderr)")
        }
    }

    @Test func fontsMatchSaysWhichFaceAndWhy() throws {
        let result = try CLI.run(["fonts", "--match", "Inter:weight=700", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        #expect(json?["family"] as? String == "Inter")
        #expect(json?["variations"] as? String == "wght=700")
        #expect(json?["instance"] as? String == "Bold")
        #expect((json?["why"] as? [String])?.first == "'Inter' is installed (pinned)")
        let bad = try CLI.run(["fonts", "--match", "Inter:weight=huge"])
        #expect(bad.status == 3)
        #expect(bad.stderr.hasPrefix("hlrender: error: --match 'Inter:weight=huge': weight must be"), "\(bad.stderr)")
    }

    /// Dark pixels in a PNG on white (Pillow reads it: not our decoder).
    private func ink(_ png: String) throws -> Int {
        let script = "from PIL import Image; im = Image.open('\(png)').convert('L'); print(sum(1 for v in im.getdata() if v < 128))"
        return Int(try runTool("/usr/bin/python3", ["-c", script]).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
