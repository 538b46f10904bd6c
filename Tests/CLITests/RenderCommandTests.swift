import Codecs
import Render
import Compare
import Foundation
import TestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test func rendersPNGAndPDFFromEveryInputKind() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let textFile = Fixtures.corpus.appendingPathComponent("en.txt").path
        let png = dir.appendingPathComponent("a.png").path, pdf = dir.appendingPathComponent("a.pdf").path
        #expect(try CLI.run(["render", "--text-file", textFile, "--width", "600", "-o", png]).status == 0)
        #expect(try CLI.run(["render", "--text", "Hello", "-o", pdf]).status == 0)
        let piped = dir.appendingPathComponent("b.png").path
        #expect(try CLI.run(["render", "-o", piped], stdin: Array("from stdin".utf8)).status == 0)
        #expect(try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))).width == 664)
        #expect(try Data(contentsOf: URL(fileURLWithPath: pdf)).starts(with: Array("%PDF".utf8)))
        #expect(try qpdfCheck(pdf))
        let forced = dir.appendingPathComponent("forced.bin").path
        #expect(try CLI.run(["render", "--text", "x", "--format", "pdf", "-o", forced]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: forced)).starts(with: Array("%PDF".utf8)))
    }

    @Test func dumpLayoutFollowsTheContract() throws {
        let result = try CLI.run(["render", "--text", "héllo wörld\n春", "--margin", "10", "--scale", "2",
                                  "--dump-layout", "-"])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        #expect(json["scale"] as? Double == 2)
        let lines = json["lines"] as! [[String: Any]]
        #expect(lines.map { $0["start"] as! Int } == [0, 14])
        #expect(lines.map { $0["end"] as! Int } == [13, 17])
        #expect(lines.map { $0["text"] as! String } == ["héllo wörld", "春"])
        #expect(lines[0]["x"] as? Double == 20)  // margin 10 at scale 2
        #expect(lines[0]["top"] as? Double == 20)
        #expect(lines[1]["top"] as? Double == (lines[0]["top"] as! Double) + (lines[0]["height"] as! Double))
        for key in ["width", "height", "baseline", "rtl", "fonts"] { #expect(lines[0][key] != nil, "\(key)") }
        let width = json["width"] as! Int
        #expect(Double(width) == ((lines[0]["width"] as! Double) + 40).rounded(.up))
    }

    /// Every bad input: exit 3, one line on stderr naming the problem, and no file left behind.
    @Test(arguments: [
        (["--text", "x", "-o", "OUT/out.xyz"], "unknown extension '.xyz'"),
        (["--text", "x", "-o", "/nonexistent-dir/out.png"], "does not exist"),
        (["--text-file", "/nonexistent.txt", "-o", "OUT/out.png"], "cannot read text file '/nonexistent.txt'"),
        (["--text", "x", "--font", "Noto Sanz", "-o", "OUT/out.png"], "unknown font family 'Noto Sanz'; did you mean 'Noto Sans'"),
        (["--text", "x", "--font", "FONTS/README.md", "-o", "OUT/out.png"], "is not a font file"),
        (["--text", "x", "--size", "0", "-o", "OUT/out.png"], "--size: must be between 0.01 and 10000 px, got 0.0"),
        (["--text", "x", "--size=-5", "-o", "OUT/out.png"], "--size: must be between 0.01 and 10000 px, got -5.0"),
        (["--text", "x", "--size", "nan", "-o", "OUT/out.png"], "--size: 'nan' is not a number"),
        (["--text", "x", "--width", "inf", "-o", "OUT/out.png"], "--width: 'inf' is not a number"),
        (["--text", "x", "--canvas", "20000x20000", "-o", "OUT/out.png"], "over the limit of 100000000"),
        (["--text", "x", "--canvas", "200x200", "--max-pixels", "1000", "-o", "OUT/out.png"], "over the limit of 1000"),
        (["--text", "x", "--canvas", "12by7", "-o", "OUT/out.png"], "--canvas: '12by7'"),
        (["--text", "x", "--color", "blurple", "-o", "OUT/out.png"], "--color: 'blurple' is not a colour"),
        (["--text", "x", "--scale", "4", "-o", "OUT/out.png"], "--scale: must be 1, 2 or 3, got 4"),
        // A choice lists the accepted values (ArgumentParser's own message printed none).
        (["--text", "x", "--align", "middle", "-o", "OUT/out.png"], "--align: 'middle' is not one of left, center, right, start, end, justify"),
        (["--text", "x", "--bogus", "-o", "OUT/out.png"], "Unknown option '--bogus'"),
        (["--text", "x"], "no output"),
        // Absurd numbers are refused, never overflow into a crash.
        (["--text", "x", "--size", "1e300", "-o", "OUT/out.png"], "--size: must be between 0.01 and 10000 px"),
        (["--text", "x", "--size", "1e-300", "-o", "OUT/out.png"], "--size: must be between 0.01 and 10000 px"),
        (["--text", "x", "--canvas", "1e300x10", "-o", "OUT/out.png"], "--canvas: '1e300x10' is not \"WIDTHxHEIGHT\""),
        (["--text", "x", "--margin", "1e300", "-o", "OUT/out.png"], "--margin: must be a number from 0 to 1000000, got 1e+300"),
        (["--text", "x", "--width", "1e300", "--align", "center", "-o", "OUT/out.png"], "--width: must be at most 1000000, got 1e+300"),
        (["--text", "x", "--width", "1e300", "--canvas", "500x500", "--shadow", "0,0,1,black", "-o", "OUT/out.png"],
         "--width: must be at most 1000000, got 1e+300"),
        (["--text", "x", "--line-spacing", "1e300", "-o", "OUT/out.png"], "--line-spacing: must be a positive number up to 1000, got 1e+300"),
        (["--text", "x\ny", "--line-spacing", "900", "-o", "OUT/out.png"], "PNG images are at most 32767 px a side; lower --size, --scale or --width"),
        (["--text", "x", "--highlight", "white", "--padding", "1e300", "-o", "OUT/out.png"], "--padding: is not X or X,Y with lengths from 0 to 1000000"),
        // The canvas flag set the size: the message names it, not the text's size flags.
        (["--text", "x", "--canvas", "40000x100", "-o", "OUT/out.png"],
         "output 40000x100 px is too large: PNG images are at most 32767 px a side; lower --canvas or --scale"),
        (["--text", "x", "--canvas", "15000x100", "-o", "OUT/out.pdf"], "output 15000x100 pt is too large: PDF pages are at most 14400 pt a side"),
        // A huge pixel limit does not turn into a self-contradictory message: the limit has a
        // range of its own, and the largest it takes still refuses a canvas past PNG's sides.
        (["--text", "x", "--canvas", "40000x40000", "--max-pixels", "9000000000000000000", "-o", "OUT/out.png"],
         "--max-pixels: must be a whole number from 1 to 1000000000000, got 9e+18"),
        (["--text", "x", "--canvas", "40000x40000", "--max-pixels", "1000000000000", "-o", "OUT/out.png"],
         "output 40000x40000 px is too large"),
        // A failure after layout leaves neither the dump nor the image behind.
        (["--text", "x", "--expect", "/nonexistent.png", "--dump-layout", "OUT/d.json", "-o", "OUT/out.png"],
         "cannot read golden '/nonexistent.png'"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = arguments.map {
            $0.replacingOccurrences(of: "OUT", with: dir.path).replacingOccurrences(of: "FONTS", with: Fixtures.fonts)
        }
        let result = try CLI.run(["render"] + args)
        #expect(result.status == 3)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func invalidUTF8NamesTheByteOffset() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.txt")
        try Data([0x61, 0x62, 0xC3, 0xA9, 0xFF, 0x63]).write(to: file)
        let out = dir.appendingPathComponent("out.png").path
        let result = try CLI.run(["render", "--text-file", file.path, "-o", out])
        #expect(result.status == 3)
        #expect(result.stderr.contains("not valid UTF-8: bad byte 0xFF at byte offset 4"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let piped = try CLI.run(["render", "-o", out], stdin: [0x61, 0xE2, 0x82])
        #expect(piped.stderr.contains("standard input is not valid UTF-8") && piped.stderr.contains("offset 1"))
    }

    @Test func unwritableOutputLeavesNothing() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The output path is a folder: the rename must fail and the temporary must go.
        let target = dir.appendingPathComponent("taken.png")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        let result = try CLI.run(["render", "--text", "x", "-o", target.path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot write"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["taken.png"])
    }

    @Test func sameInputGivesByteIdenticalPNGs() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Fixtures.corpus.appendingPathComponent("mixed.txt").path
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        try CLI.run(["render", "--text-file", text, "--width", "500", "-o", a.path])
        try CLI.run(["render", "--text-file", text, "--width", "500", "-o", b.path])
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }

    @Test func everyCorpusFileRendersToPNGAndPDF() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.corpus.path).filter { $0.hasSuffix(".txt") }
        #expect(files.count >= 8)
        for file in files {
            for ext in ["png", "pdf"] {
                let out = dir.appendingPathComponent("\(file).\(ext)").path
                let result = try CLI.run(["render", "--text-file", Fixtures.corpus.appendingPathComponent(file).path,
                                          "--width", "900", "-o", out])
                #expect(result.status == 0, "\(file) \(ext): \(result.stderr)")
            }
        }
    }
}

@Suite struct SpecialOutputTests {
    @Test func devicesAreWrittenInPlaceNotReplaced() throws {
        // Renaming a temporary over /dev/null would turn the device into a regular file.
        let result = try CLI.run(["render", "--text", "x", "--format", "png", "-o", "/dev/null", "--dump-layout", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFCHR)
    }
}

@Suite struct RestrictedCommandTests {
    @Test func dumpReportsRestrictionAndHidesText() throws {
        let result = try CLI.run(["render", "--text", "one\ntwo secret\nthree secret", "--visible-lines", "1",
                                  "--dump-layout", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        #expect(json["restricted_from_line"] as? Int == 1)
        let lines = json["lines"] as! [[String: Any]]
        #expect(lines.count == 1 && lines[0]["text"] as? String == "one")
        #expect(json["restricted"] is [String: Double])
        #expect(!String(decoding: result.stdout, as: UTF8.self).contains("secret"))
    }

    @Test(arguments: [
        (["--visible-lines=-1"], "--visible-lines: must be 0 or more, got -1"),
        (["--visible-lines", "1", "--blur-radius=-2"], "--blur-radius: must be 0 or more"),
        (["--visible-lines", "1", "--blur-radius", "500"], "--blur-radius: 500.0 is over the maximum of 200 px"),
        (["--visible-lines", "1", "--feather=-1"], "--feather: must be 0 or more"),
        (["--blur-radius", "5"], "need --visible-lines"),
        (["--visible-lines", "1", "--restrict-mode", "smudge"], "restrict-mode"),
    ])
    func badRestrictedInput(arguments: [String], message: String) throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["render", "--text", "a\nb", "-o", dir.appendingPathComponent("o.png").path] + arguments)
        #expect(result.status == 3)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
