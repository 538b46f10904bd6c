import Codecs
import Render
import Compare
import Foundation
import TestSupport
import Testing

@Suite struct CompareCommandTests {
    /// Writes images into a fresh folder and returns their paths.
    func files(_ images: [String: RGBAImage]) throws -> (URL, [String: String]) {
        let dir = try CLI.scratchFolder()
        var paths: [String: String] = [:]
        for (name, image) in images {
            let url = dir.appendingPathComponent("\(name).png")
            try Data(try PNGCodec.encode(image)).write(to: url)
            paths[name] = url.path
        }
        return (dir, paths)
    }

    func base() -> RGBAImage {
        var image = RGBAImage(width: 40, height: 30, fill: (255, 255, 255, 255))
        for y in 10..<20 { for x in 10..<30 { image[x, y] = (30, 60, 200, 255) } }
        return image
    }

    @Test func identicalAndOnePixel() throws {
        var changed = base()
        changed[3, 4] = (0, 0, 0, 255)
        let (dir, p) = try files(["a": base(), "b": changed])
        defer { try? FileManager.default.removeItem(at: dir) }
        let same = try CLI.run(["compare", p["a"]!, p["a"]!])
        #expect(same.status == 0 && String(decoding: same.stdout, as: UTF8.self) == "identical\n")
        let differ = try CLI.run(["compare", p["a"]!, p["b"]!])
        #expect(differ.status == 1)
        #expect(String(decoding: differ.stdout, as: UTF8.self) == "1 pixels differ (0.08333%); changed\n")
        #expect(try CLI.run(["compare", p["a"]!, p["b"]!, "--max-diff-pixels", "1"]).status == 0)
        #expect(try CLI.run(["compare", p["a"]!, p["b"]!, "--max-diff-ratio", "0.001"]).status == 0)
        #expect(try CLI.run(["compare", p["a"]!, p["b"]!, "--max-diff-ratio", "0.0001"]).status == 1)
        #expect(try CLI.run(["compare", p["a"]!, p["b"]!, "--ignore", "0,0,5,5"]).status == 0)
    }

    @Test func jsonReport() throws {
        var changed = base()
        changed[3, 4] = (0, 0, 0, 255)
        changed[8, 9] = (0, 0, 0, 255)
        let (dir, p) = try files(["a": base(), "b": changed])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["compare", p["a"]!, p["b"]!, "--json"])
        #expect(result.status == 1)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        #expect(json["result"] as? String == "differ")
        #expect(json["different_pixels"] as? Int == 2)
        #expect(json["total_pixels"] as? Int == 1200)
        let bounds = json["bounds"] as! [String: Int]
        #expect(bounds == ["x": 3, "y": 4, "width": 6, "height": 6])
        #expect((json["expected"] as! [String: Int]) == ["width": 40, "height": 30])
    }

    /// A few hundred bytes each, but padded to one canvas they would be 100000x100000: refused
    /// in one line against the pixel limit instead of allocating 40 GB.
    @Test func paddingOppositeShapesStaysWithinThePixelLimit() throws {
        let (dir, p) = try files(["tall": RGBAImage(width: 1, height: 100_000, fill: (0, 0, 0, 255)),
                                  "wide": RGBAImage(width: 100_000, height: 1, fill: (0, 0, 0, 255))])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["compare", p["tall"]!, p["wide"]!, "--size-mismatch", "pad"])
        #expect(result.status == 3 && !result.signalled)
        #expect(result.stderr == "hlrender: error: --size-mismatch pad: comparing needs a 100000x100000 canvas, over the limit of 100000000 pixels (--max-pixels)\n")
    }

    @Test func sizeMismatchExitsTwo() throws {
        let (dir, p) = try files(["a": base(), "small": RGBAImage(width: 10, height: 10, fill: (0, 0, 0, 255))])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["compare", p["a"]!, p["small"]!])
        #expect(result.status == 2)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "sizes differ: expected 40x30, actual 10x10\n")
    }

    @Test(arguments: [
        (["MISSING", "A"], "cannot read"),
        (["A", "TEXT"], "not a PNG, JPEG or WebP file"),
        (["A", "TRUNCATED"], "not a valid PNG file"),
        (["A", "A", "--threshold", "1.5"], "--threshold: must be a number from 0 to 1"),
        (["A", "A", "--ignore", "1,2,3"], "--ignore: '1,2,3'"),
        (["A", "A", "--ignore", "9223372036854775807,0,10,10"], "--ignore: '9223372036854775807,0,10,10'"),
        (["A", "A", "--max-diff-ratio", "2"], "--max-diff-ratio: must be a number from 0 to 1"),
        (["A", "A", "--max-diff-pixels=-1"], "--max-diff-pixels: must be a whole number from 0"),
        (["A"], "Missing expected argument"),
        (["A", "A", "--frobnicate"], "Unknown option"),
    ])
    func badInputExitsThree(arguments: [String], message: String) throws {
        let (dir, p) = try files(["a": base()])
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("hello".utf8).write(to: dir.appendingPathComponent("text.png"))
        try Data(Array(try PNGCodec.encode(base()).prefix(60))).write(to: dir.appendingPathComponent("cut.png"))
        let args = arguments.map {
            switch $0 {
            case "A": return p["a"]!
            case "MISSING": return dir.appendingPathComponent("missing.png").path
            case "TEXT": return dir.appendingPathComponent("text.png").path
            case "TRUNCATED": return dir.appendingPathComponent("cut.png").path
            default: return $0
            }
        }
        let result = try CLI.run(["compare"] + args)
        #expect(result.status == 3)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func diffImageIsAGolden() throws {
        // A rendered word against the same word one letter changed: AA pixels yellow, real ones red.
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png").path, b = dir.appendingPathComponent("b.png").path
        let diff = dir.appendingPathComponent("diff.png").path
        try CLI.run(["render", "--text", "golden", "--size", "40", "--highlight", "#FFD43B", "-o", a])
        try CLI.run(["render", "--text", "goldan", "--size", "40", "--highlight", "#FFD43B", "-o", b])
        let result = try CLI.run(["compare", a, b, "--diff", diff])
        #expect(result.status == 1)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: diff)))
        let image = try PNGCodec.decode(bytes)
        let single = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: a))))
        #expect(image.width == single.width * 3 && image.height == single.height)
        try Golden.check(bytes, area: "compare", name: "diff-image")
    }

    @Test func renderExpectChecksInOneStep() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let golden = dir.appendingPathComponent("golden.png").path
        try CLI.run(["render", "--text", "Same text", "--highlight", "white", "--canvas", "300x120", "-o", golden])
        let pass = try CLI.run(["render", "--text", "Same text", "--highlight", "white", "--canvas", "300x120", "--expect", golden])
        #expect(pass.status == 0 && String(decoding: pass.stdout, as: UTF8.self) == "identical\n")
        let fail = try CLI.run(["render", "--text", "Some text", "--highlight", "white", "--canvas", "300x120", "--expect", golden,
                                "--diff", dir.appendingPathComponent("d.png").path])
        #expect(fail.status == 1)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("d.png").path))
        let size = try CLI.run(["render", "--text", "Other size entirely", "--expect", golden])
        #expect(size.status == 2)
        let loose = try CLI.run(["render", "--text", "Some text", "--highlight", "white", "--canvas", "300x120", "--expect", golden,
                                 "--threshold", "1"])
        #expect(loose.status == 0)
        let pdf = try CLI.run(["render", "--text", "x", "--format", "pdf", "--expect", golden])
        #expect(pdf.status == 3 && pdf.stderr.contains("--expect compares PNG renders"))
    }
}

@Suite struct CompareAntialiasingTests {
    @Test func subpixelShiftOfRenderedTextIsAntialiasing() throws {
        // The same text moved by 0.4 px: only edge pixels change, and they look like
        // anti-aliasing, so they are not counted unless --count-aa.
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png").path, b = dir.appendingPathComponent("b.png").path
        try CLI.run(["render", "--text", "Shift", "--size", "40", "--canvas", "200.2x80", "-o", a])
        try CLI.run(["render", "--text", "Shift", "--size", "40", "--canvas", "201x80", "-o", b])
        let loose = try CLI.run(["compare", a, b, "--json"])
        let strict = try CLI.run(["compare", a, b, "--json", "--count-aa"])
        let looseJSON = try JSONSerialization.jsonObject(with: Data(loose.stdout)) as! [String: Any]
        let strictJSON = try JSONSerialization.jsonObject(with: Data(strict.stdout)) as! [String: Any]
        #expect((looseJSON["antialiased_pixels"] as! Int) > 0)
        #expect((strictJSON["different_pixels"] as! Int) > (looseJSON["different_pixels"] as! Int))
        #expect(strict.status == 1)
    }
}
