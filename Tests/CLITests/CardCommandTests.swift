import Codecs
import Render
import Compare
import Foundation
import TestSupport
import Testing

private let examples = Fixtures.repo.appendingPathComponent("examples")
private let exampleVars = ["--var", "quote=A highlight should hug every line and never leave a seam", "--var", "author=Sei Shōnagon",
                                   "--var", "name=Ana <Lima>", "--var", "price=$9.99"]

@Suite struct CardCommandTests {
    /// The examples in examples/ as the README shows them (looked at before recording).
    @Test(arguments: ["quote-photo", "headline-gradient", "steps-card", "rtl-card", "rich-card"])
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
        (#"{"blocks": [{"type": "text", "text": "{{who}}"}]}"#, "spec.json: blocks[0].text: variable {{who}} has no value (give --var who=...)"),
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

/// Every encoder, from every command: PNG settings decode to the same pixels; JPEG and WebP
/// decode (through our own decoders) to the right size and close to the PNG.
@Suite struct EncoderTests {
    func render(_ out: String, _ extra: [String] = []) throws -> [UInt8] {
        let result = try CLI.run(["card", examples.appendingPathComponent("headline-gradient.json").path, "-o", out] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test func pngSettingsDecodeToTheSamePixels() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let images = try ["fast", "default", "small"].map {
            try PNGCodec.decode(try render(dir.appendingPathComponent("\($0).png").path, ["--png-compression", $0]))
        }
        #expect(images[0] == images[1] && images[1] == images[2])
    }

    @Test(arguments: [("card.jpg", [String]()), ("card.webp", []), ("card.webp", ["--lossless"])])
    func lossyFormatsAreCloseToThePNG(file: String, extra: [String]) throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reference = try render(dir.appendingPathComponent("ref.png").path)
        let other = try render(dir.appendingPathComponent(file).path, extra)
        // Re-encode as PNG through hlrender's own decoders, then compare.
        let converted = dir.appendingPathComponent("converted.png").path
        let spec = dir.appendingPathComponent("c.json")
        try Data(#"{"size": "1080x1920", "padding": 0, "background": {"image": "\#(file)"}, "blocks": []}"#.utf8).write(to: spec)
        #expect(try CLI.run(["card", spec.path, "-o", converted]).status == 0)
        let result = try CLI.run(["compare", dir.appendingPathComponent("ref.png").path, converted, "--json", "--threshold", "0.1"])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        #expect((json["ratio"] as! Double) < 0.01, "\(file) \(extra): \(json)")
        #expect(reference.count > 0 && other.count > 0)
        if extra.contains("--lossless") { #expect(result.status == 0 && (json["different_pixels"] as! Int) == 0) }
    }

    @Test func transparentJPEGsAreFlattenedWithAWarning() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["render", "--text", "Hi", "--highlight", "yellow", "-o", dir.appendingPathComponent("t.jpg").path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: JPEG has no transparency"))
    }
}

/// PDF metadata, and SOURCE_DATE_EPOCH for files that are the same bytes on every run.
@Suite struct PDFMetadataTests {
    func run(_ arguments: [String], epoch: String?) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments + ["--no-system-fonts"]
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = epoch
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func reproducibleWithMetadata() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.pdf").path, b = dir.appendingPathComponent("b.pdf").path
        let flags = ["--title", "Story preview", "--author", "hlrender tests", "--subject", "cards", "--keywords", "one, two"]
        #expect(try run(["card", examples.appendingPathComponent("steps-card.json").path, "-o", a] + flags, epoch: "1700000000") == 0)
        sleep(1)  // a clock-based date would now differ
        #expect(try run(["card", examples.appendingPathComponent("steps-card.json").path, "-o", b] + flags, epoch: "1700000000") == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
        #expect(try qpdfCheck(a))
        let info = Process()
        info.executableURL = URL(fileURLWithPath: "/usr/bin/pdfinfo")
        info.arguments = [a]
        let pipe = Pipe()
        info.standardOutput = pipe
        try info.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        info.waitUntilExit()
        for expected in ["Title:           Story preview", "Author:          hlrender tests", "Subject:         cards",
                         "Keywords:        one, two", "CreationDate:    Tue Nov 14 22:13:20 2023 UTC"] {
            #expect(text.contains(expected), "\(text)")
        }
        #expect(try run(["render", "--text", "x", "-o", a], epoch: "yesterday") == 3)
    }
}
