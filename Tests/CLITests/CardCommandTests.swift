import Compare
import Foundation
import TestSupport
import Testing

private let examples = Fixtures.repo.appendingPathComponent("examples")
private let exampleVars = ["--var", "quote=A highlight should hug every line and never leave a seam", "--var", "author=Sei Shōnagon"]

@Suite struct CardCommandTests {
    /// The examples in examples/ as the README shows them (looked at before recording).
    @Test(arguments: ["quote-photo", "headline-gradient", "steps-card", "rtl-card"])
    func exampleGolden(name: String) throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("card.png").path
        let result = try CLI.run(["card", examples.appendingPathComponent("\(name).json").path, "-o", out] + exampleVars)
        #expect(result.status == 0, "\(result.stderr)")
        try Golden.check([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))), area: "cards", name: name)
    }

    @Test func pdfTextIsRealAndExtractable() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("card.pdf").path
        let result = try CLI.run(["card", examples.appendingPathComponent("quote-photo.json").path, "-o", out] + exampleVars)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try pdfText([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(text.contains("A highlight should") && text.contains("leave a seam") && text.contains("Sei Shōnagon"), "\(text)")
    }

    @Test func specFromStandardInputWithVariables() throws {
        let spec = #"{"size": "1000x300", "blocks": [{"type": "text", "text": "{{a}} and {{b}}", "anchor": "top-left"}]}"#
        let result = try CLI.run(["card", "-", "--var", "a=\"quoted\"", "--var", "b={{a}}\nnext", "--dump-layout", "-"],
                                 stdin: Array(spec.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        let block = (json["blocks"] as! [[String: Any]])[0]
        let lines = (block["lines"] as! [[String: Any]]).map { $0["text"] as! String }
        #expect(lines == ["\"quoted\" and {{a}}", "next"])
        #expect(block["x"] as? Double == 64 && block["y"] as? Double == 64)
    }

    @Test(arguments: [
        (##"{"blocks": [{"type": "text", "text": "a", "highlight": "#GGG"}]}"##, "spec.json: blocks[0].highlight: '#GGG' is not a colour"),
        (#"{"blocks": [{"type": "text", "text": "a",}]}"#, "spec.json: line 1, column 42: expected a key in double quotes"),
        (#"{"blocks": [{"type": "text", "text": "{{who}}"}]}"#, "spec.json: blocks[0].text: variable {{who}} has no value"),
    ])
    func errorsAreOneLineWithThePath(spec: String, message: String) throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("spec.json")
        try Data(spec.utf8).write(to: file)
        let out = dir.appendingPathComponent("o.png").path
        let result = try CLI.run(["card", file.path, "-o", out])
        #expect(result.status == 3)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
