import Codecs
import Foundation
import Render
import Support
import TestSupport
import Testing

/// `batch --expect-dir` renders only the cards whose inputs changed since they passed.
@Suite struct IncrementalSuiteTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Two cards: one with a picture from a file, one with a text file.
    func writeCards(title: String = "Alpha", picture: (UInt8, UInt8, UInt8) = (200, 40, 40), note: String = "a note") throws {
        let lines = [
            ##"{"output": "pic.png", "size": "200x120", "padding": 8, "background": "#223344", "blocks": [{"type": "image", "src": "pic.png", "width": 40}, {"type": "text", "text": "\##(title)", "size": 20, "color": "white", "anchor": "bottom"}]}"##,
            ##"{"output": "note.png", "size": "200x120", "padding": 8, "background": "#443322", "blocks": [{"type": "text", "text-file": "note.txt", "size": 20, "color": "white"}]}"##,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("cards.jsonl"))
        let image = RGBAImage(width: 8, height: 8, fill: (picture.0, picture.1, picture.2, 255))
        try Data(try PNGCodec.encode(image)).write(to: dir.appendingPathComponent("pic.png"))
        try Data(note.utf8).write(to: dir.appendingPathComponent("note.txt"))
    }

    func suite(_ extra: [String] = []) throws -> CLIResult {
        try CLI.run(["batch", path("cards.jsonl"), "--expect-dir", path("goldens"), "--quiet"] + extra, pinnedFonts: false)
    }

    @Test func onlyCardsWhoseInputsChangedAreRendered() throws {
        try writeCards()
        let recorded = try suite(["--update"])
        #expect(recorded.status == 0 && recorded.stderr.contains("rendered 2,"), "\(recorded.stderr)")
        // The record names each card's files and the verdict it passed with.
        let record = try String(contentsOfFile: path("goldens/hlrender-inputs.json"), encoding: .utf8)
        #expect(record.contains("pic.png\"") && record.contains("note.txt\"") && record.contains("\"status\": \"same\""), "\(record)")

        let again = try suite()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("rendered 0, skipped 2"), "\(again.stderr)")
        #expect(again.stderr.contains("goldens: 2 same (2 not rendered again: inputs unchanged)"), "\(again.stderr)")

        // A picture rewritten in place: its card renders (and fails), the other does not.
        try writeCards(picture: (40, 200, 40))
        let picture = try suite()
        #expect(picture.status == 1 && picture.stderr.contains("rendered 1, skipped 1"), "\(picture.stderr)")
        #expect(picture.stderr.contains("changed: pic.png"), "\(picture.stderr)")
        // The record is written again without the failing card; the other card's line is the
        // same bytes, and the whole is still JSON.
        let rewritten = try String(contentsOfFile: path("goldens/hlrender-inputs.json"), encoding: .utf8)
        let line = { (record: String, name: String) in record.split(separator: "\n").first { $0.contains("\"\(name)\": ") }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) } }
        #expect(line(rewritten, "note.png") != nil && line(rewritten, "note.png") == line(record, "note.png"), "\(rewritten)")
        #expect(line(rewritten, "pic.png") == nil, "\(rewritten)")
        #expect(try JSONSerialization.jsonObject(with: Data(rewritten.utf8)) is [String: Any])
        // The failing card keeps no record: it renders every run until it passes.
        #expect(try suite().stderr.contains("rendered 1, skipped 1"))
        try writeCards()
        #expect(try suite().stderr.contains("rendered 1, skipped 1"))  // passes again, recorded again
        #expect(try suite().stderr.contains("rendered 0, skipped 2"))

        // A text file the card reads, and the spec itself.
        try writeCards(note: "another note")
        let note = try suite()
        #expect(note.status == 1 && note.stderr.contains("changed: note.png") && note.stderr.contains("rendered 1, skipped 1"), "\(note.stderr)")
        try writeCards(title: "Beta")
        let both = try suite()
        #expect(both.stderr.contains("rendered 2, not rendered 0"), "\(both.stderr)")
        try writeCards()
        _ = try suite()

        // Options that change the output, and a golden replaced by other bytes, render again.
        #expect(try suite(["--png-compression", "small"]).stderr.contains("rendered 2, not rendered 0"))
        try Data(try PNGCodec.encode(RGBAImage(width: 200, height: 120, fill: (0, 0, 0, 255)))).write(to: dir.appendingPathComponent("goldens/note.png"))
        let tampered = try suite()
        #expect(tampered.status == 1 && tampered.stderr.contains("changed: note.png"), "\(tampered.stderr)")
        // --render-all draws every card and still keeps the record.
        #expect(try suite(["--update"]).status == 0)
        let all = try suite(["--render-all"])
        #expect(all.status == 0 && all.stderr.contains("rendered 2, not rendered 0"), "\(all.stderr)")
        #expect(try suite().stderr.contains("rendered 0, skipped 2"))
    }

    /// A font added to a folder the run loads can change fallback: every card renders again.
    @Test func aFontAddedToTheFoldersRendersEveryCard() throws {
        try writeCards()
        let fonts = path("more-fonts")
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        #expect(try suite(["--update", "--font-dir", fonts]).status == 0)
        #expect(try suite(["--font-dir", fonts]).stderr.contains("rendered 0, skipped 2"))
        try FileManager.default.copyItem(atPath: Fixtures.fonts + "/NotoSansMono-Regular-Latin-subset.ttf", toPath: fonts + "/mono.ttf")
        let added = try suite(["--font-dir", fonts])
        #expect(added.status == 0 && added.stderr.contains("rendered 2, not rendered 0"), "\(added.stderr)")
    }

    /// A record laid out another way (reformatted, merged by hand) is read all the same, and
    /// written back as a run writes it.
    @Test func aRecordReformattedByHandIsStillRead() throws {
        try writeCards()
        #expect(try suite(["--update"]).status == 0)
        let file = dir.appendingPathComponent("goldens/hlrender-inputs.json")
        let saved = try Data(contentsOf: file)
        let object = try JSONSerialization.jsonObject(with: saved)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: file)
        #expect(try Data(contentsOf: file) != saved)
        let again = try suite()
        #expect(again.status == 0 && again.stderr.contains("rendered 0, skipped 2"), "\(again.stderr)")
        // A card changed: the record is written again, as a run writes it.
        try writeCards(note: "another note")
        _ = try suite()
        try writeCards()
        _ = try suite()
        let rewritten = try String(contentsOf: file, encoding: .utf8)
        #expect(rewritten.hasPrefix("{\n  \"format\": 2,") && rewritten.contains("\n    \"note.png\": {\"key\": ")
                && rewritten.contains("\n    \"pic.png\": {\"key\": "), "\(rewritten)")
    }

    /// A damaged record only costs time: every card renders, and the record is written anew.
    @Test func aDamagedRecordRendersEveryCard() throws {
        try writeCards()
        #expect(try suite(["--update"]).status == 0)
        try Data("{\"cards\": [1, 2".utf8).write(to: dir.appendingPathComponent("goldens/hlrender-inputs.json"))
        let damaged = try suite()
        #expect(damaged.status == 0 && damaged.stderr.contains("rendered 2, not rendered 0"), "\(damaged.stderr)")
        #expect(try suite().stderr.contains("rendered 0, skipped 2"))
    }
}
