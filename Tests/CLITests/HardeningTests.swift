import Codecs
import Render
import Compare
import Foundation
import Glibc
import TestSupport
import Testing

private func scratch() throws -> URL { try CLI.scratchFolder() }

private func write(_ image: RGBAImage, _ url: URL) throws {
    try Data(try PNGCodec.encode(image)).write(to: url)
}

private func json(_ result: CLIResult) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
}

/// `compare` faults found against pixelmatch's and odiff's behaviour.
@Suite struct CompareHardeningTests {
    @Test func corruptGoldenIsBadInputEvenAgainstItsCopy() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = try PNGCodec.encode(RGBAImage(width: 30, height: 30, fill: (1, 2, 3, 255)))
        bytes[bytes.count - 20] ^= 0x5A
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        try Data(bytes).write(to: a)
        try Data(bytes).write(to: b)
        let result = try CLI.run(["compare", a.path, b.path])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("a.png: not a valid PNG file"))
    }

    @Test func sizeMismatchNeverReadsAsAPass() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        try write(RGBAImage(width: 40, height: 30, fill: (255, 255, 255, 255)), a)
        try write(RGBAImage(width: 50, height: 30, fill: (255, 255, 255, 255)), b)
        let fail = try CLI.run(["compare", a.path, b.path, "--json"])
        #expect(fail.status == 2)
        let report = try json(fail)
        #expect(report["result"] as? String == "size-mismatch")
        #expect(report["ratio"] as? Double == 1)
        #expect(report["different_pixels"] as? Int == 1500)
        let pad = try CLI.run(["compare", a.path, b.path, "--json", "--size-mismatch", "pad"])
        #expect(pad.status == 1)
        #expect(try json(pad)["different_pixels"] as? Int == 300, "the 10x30 strip only")
        let loose = try CLI.run(["compare", a.path, b.path, "--size-mismatch", "pad", "--max-diff-pixels", "300"])
        #expect(loose.status == 0, "\(loose.stderr)")
    }

    @Test func transparentGoldenIsNotAWhiteRender() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        try write(RGBAImage(width: 10, height: 10, fill: (0, 0, 0, 0)), a)
        try write(RGBAImage(width: 10, height: 10, fill: (255, 255, 255, 255)), b)
        let result = try CLI.run(["compare", a.path, b.path])
        #expect(result.status == 1)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "100 pixels differ (100%); colour only\n")
    }

    @Test func sixteenBitAndGammaEncodingsAreTheSameImage() throws {
        let folder = Fixtures.repo.appendingPathComponent("Tests/CompareTests/Fixtures/encodings")
        for other in ["rgb16.png", "rgb8-gamma1.png"] {
            let result = try CLI.run(["compare", folder.appendingPathComponent("rgb8.png").path,
                                      folder.appendingPathComponent(other).path])
            #expect(result.status == 0, "\(other): \(String(decoding: result.stdout, as: UTF8.self))")
        }
    }

    @Test func declaredSizesAreCheckedBeforeDecoding() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png")
        try write(RGBAImage(width: 200, height: 100, fill: (0, 0, 0, 255)), a)
        let result = try CLI.run(["compare", a.path, a.path, "--max-pixels", "10000"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("declares 200x100 pixels, over the limit of 10000"), "\(result.stderr)")
    }

    @Test func theDiffCanvasIsSizedSafely() throws {
        // 1000x2 against 2x1000: each image is small, the common canvas is 1000x1000.
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        try write(RGBAImage(width: 1000, height: 2, fill: (0, 0, 0, 255)), a)
        try write(RGBAImage(width: 2, height: 1000, fill: (0, 0, 0, 255)), b)
        let result = try CLI.run(["compare", a.path, b.path, "--max-pixels", "100000",
                                  "--diff", dir.appendingPathComponent("d.png").path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("--diff: the difference image would be 3 x 1000x1000 pixels"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("d.png").path))
    }

    @Test func endlessInputIsRefused() throws {
        let result = try CLI.run(["compare", "/dev/zero", "/dev/zero", "--max-input-bytes", "1000000"])
        #expect(result.status == 3)
        // Refused before a byte is read: not a regular file (the one opening rule).
        #expect(result.stderr.contains("cannot read image '/dev/zero': not a regular file"), "\(result.stderr)")
    }
}

/// Inputs that used to crash the renderer or run it out of memory.
@Suite struct InputBoundsTests {
    @Test(arguments: [["render", "--text-file", "/dev/zero", "--dump-layout", "-"],
                      ["steps", "--steps-file", "/dev/zero", "--dump-layout", "-"]])
    func endlessFilesAreRefused(arguments: [String]) throws {
        let result = try CLI.run(arguments + ["--max-input-bytes", "100000"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("'/dev/zero': not a regular file"), "\(result.stderr)")
    }

    @Test func standardInputIsBoundedToo() throws {
        let result = try CLI.run(["render", "--dump-layout", "-", "--max-input-bytes", "1000"],
                                 stdin: Array(repeating: UInt8(ascii: "y"), count: 5000))
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot read standard input: more than 1000 bytes"), "\(result.stderr)")
    }

    @Test(arguments: ["render", "steps"])
    func thousandsOfMarksOnOneBaseAreCapped(command: String) throws {
        // 'a' + 65,000 combining marks (with CGJ every 30, which does not reset the count)
        // aborted inside HarfBuzz; now the marks past 30 are dropped with a warning.
        var scalars = "a".unicodeScalars.map { $0 }
        var state: UInt32 = 1
        for i in 0..<65_000 {
            state = state &* 1_103_515_245 &+ 12345
            scalars.append(i % 31 == 30 ? "\u{034F}" : Unicode.Scalar(0x300 + (state >> 16) % 0x6F)!)
        }
        let text = String(String.UnicodeScalarView(scalars)) + " b"
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("marks.txt")
        try Data(text.utf8).write(to: file)
        let flag = command == "render" ? "--text-file" : "--steps-file"
        let result = try CLI.run([command, flag, file.path, "--dump-layout", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: dropped 64970 combining marks beyond 30 on one base character"),
                "\(result.stderr)")
    }
}

/// Output files: atomic, never through a planted link, never left behind.
@Suite struct OutputFileTests {
    @Test func aFailedImageLeavesNoDump() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dump = dir.appendingPathComponent("d.json").path
        let result = try CLI.run(["render", "--text", "x", "--format", "png", "-o", "/dev/full", "--dump-layout", dump])
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot write '/dev/full'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dump))
    }

    @Test func aSymlinkedOutputWritesItsTarget() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.png").path, link = dir.appendingPathComponent("link.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink("target.png", link) == 0)
        let result = try CLI.run(["render", "--text", "x", "-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.png")
        #expect(try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: target)))).width > 0)
    }

    @Test func plantedLinksAtPredictableNamesAreNotFollowed() throws {
        // Links at every name the old `.out.png.<pid>.tmp` scheme could pick next.
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim.txt").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let last = Int((try? String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        for pid in last..<(last + 400) { symlink(victim, dir.appendingPathComponent(".out.png.\(pid).tmp").path) }
        let out = dir.appendingPathComponent("out.png").path
        let result = try CLI.run(["render", "--text", "x", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        var info = stat()
        #expect(lstat(out, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }

    /// A temporary is stale when no writer holds its lock, whatever process ID its name shows:
    /// across PID namespaces (shards on shared storage) a live writer's ID may look dead here.
    @Test func onlyUnlockedTemporariesAreRemoved() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // pid_max is at most 2^22: no process here has this pid, but the file is held.
        let held = dir.appendingPathComponent(".out.png.hlrender-4194305-AbCdEf.tmp").path
        let dead = dir.appendingPathComponent(".hlrender-XyZ123.tmp").path
        let deadOld = dir.appendingPathComponent(".out.png.hlrender-4194306-GhIjKl.tmp").path
        for path in [held, dead, deadOld] { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        let fd = open(held, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let result = try CLI.run(["render", "--text", "x", "-o", dir.appendingPathComponent("out.png").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dead) && !FileManager.default.fileExists(atPath: deadOld))
        #expect(FileManager.default.fileExists(atPath: held), "a held temporary was removed")
    }

    /// A font folder that is no folder of fonts is refused at once, not scanned for ever.
    @Test func procAsAFontFolderIsRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["render", "--text", "hi", "--font-dir", "/proc", "-o", dir.appendingPathComponent("o.png").path], timeout: 30)
        #expect(result.status == 3 && !result.signalled)
        // Fontconfig follows links, so the check does too: /proc ends at the depth or the entry limit.
        #expect(result.stderr.hasPrefix("hlrender: error: font folder '/proc' ") && result.stderr.hasSuffix("; give a folder of fonts\n"),
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// A shadow is drawn only where it can reach the canvas: one 8000 px glyph on a 100x100
    /// card renders within 1 GB of address space (its whole shadow layer was 2.6 GB).
    @Test func aHugeGlyphsShadowCostsNoMoreThanTheCard() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("w.json"), out = dir.appendingPathComponent("w.png")
        try Data(#"{"size": "100x100", "padding": 0, "blocks": [{"type": "text", "text": "W", "size": 8000, "shadow": "0,0,1,black"}]}"#.utf8).write(to: spec)
        let run = try runTool("/bin/bash", ["-c", "ulimit -v 1000000; exec \"$0\" card \"$1\" -o \"$2\" --no-system-fonts", CLI.binary, spec.path, out.path])
        #expect(run.status == 0, "\(run.output)")
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: out)))
        #expect(image.width == 100 && image.height == 100)
    }

    /// The restricted blur's padded surface counts against the pixel limit.
    @Test func theRestrictedBlurSurfaceIsWithinThePixelLimit() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("b.json")
        try Data(#"{"size": "2108x2108", "scale": 3, "padding": 0, "blocks": [{"type": "text", "text": "W", "size": 2700, "visible-lines": 0}]}"#.utf8).write(to: spec)
        let result = try CLI.run(["card", spec.path, "-o", dir.appendingPathComponent("b.png").path])
        #expect(result.status == 3 && !result.signalled)
        #expect(result.stderr.hasPrefix("hlrender: error: the restricted blur needs a ") && result.stderr.contains("(see --max-pixels)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b.png").path))
    }

    /// Any legal file name works: the temporary's name does not grow with it.
    @Test func longestFileNamesCanBeWritten() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for length in [229, 240, 255] {
            let name = String(repeating: "n", count: length - 4) + ".png"
            let result = try CLI.run(["render", "--text", "x", "-o", dir.appendingPathComponent(name).path])
            #expect(result.status == 0, "\(length): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path))
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalInTheWriteWindowLeavesNoTemporary(signal: Int32) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["render", "--text", "x", "--no-system-fonts", "-o", dir.appendingPathComponent("out.png").path]
        process.environment = ["HLRENDER_TEST_WRITE_PAUSE_MS": "5000"]
        try process.run()
        // Wait until the temporary file exists, then interrupt.
        var waited = 0
        while waited < 200, (try FileManager.default.contentsOfDirectory(atPath: dir.path)).isEmpty {
            usleep(50_000)
            waited += 1
        }
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.path)).isEmpty, "the run never wrote")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func theOutputMayBeTheInput() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("same").path
        try Data("Read first, then overwritten".utf8).write(to: URL(fileURLWithPath: file))
        let result = try CLI.run(["render", "--text-file", file, "--format", "png", "-o", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: file)))).width > 0)
    }

    @Test func aTruncatedFontIsAnError() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let font = dir.appendingPathComponent("cut.ttf").path
        let whole = try Data(contentsOf: URL(fileURLWithPath: Fixtures.fonts + "/NotoSans-Regular.ttf"))
        try whole.prefix(100_000).write(to: URL(fileURLWithPath: font))
        let out = dir.appendingPathComponent("o.png").path
        let result = try CLI.run(["render", "--text", "Hello", "--font", font, "-o", out])
        #expect(result.status == 3)
        #expect(result.stderr.contains("font file '\(font)' is damaged"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A font whose tables are all in place but whose outlines are garbage shapes fine (shaping
    /// reads no outlines) and must still fail before anything is written, not draw blank text.
    @Test func damagedOutlinesAreAnError() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.fonts + "/NotoSans-Regular.ttf")))
        let word = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        let glyf = try #require((0..<tables).map { 12 + 16 * $0 }.first { bytes[$0..<$0 + 4].elementsEqual("glyf".utf8) })
        let (offset, length) = (word(glyf + 8), word(glyf + 12))
        for i in offset..<offset + length { bytes[i] = 0xFF }
        let font = dir.appendingPathComponent("garbled.ttf").path
        try Data(bytes).write(to: URL(fileURLWithPath: font))
        let out = dir.appendingPathComponent("o.png").path
        let result = try CLI.run(["render", "--text", "Hello", "--font", font, "-o", out])
        #expect(result.status == 3)
        #expect(result.stderr.contains("font '\(font)': glyph ") && result.stderr.contains("cannot be loaded"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

/// Restricted mode must not be an oracle for the hidden text.
@Suite struct RestrictedLeakTests {
    let text = "Your code is ready\nYour PIN is 7391\nKeep it safe"

    func render(_ extra: [String], in dir: URL, name: String) throws -> [UInt8] {
        let out = dir.appendingPathComponent(name).path
        let result = try CLI.run(["render", "--text", text, "--visible-lines", "1", "-o", out] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test func substitutesAreFreshUnlessSeeded() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try render([], in: dir, name: "a.png") != (try render([], in: dir, name: "b.png")))
        let seeded = ["--scramble-seed", "42"]
        #expect(try render(seeded, in: dir, name: "c.png") == (try render(seeded, in: dir, name: "d.png")))
    }

    @Test func theDumpShowsHiddenLinesOnlyAsOneRegion() throws {
        let result = try CLI.run(["render", "--text", text, "--visible-lines", "1", "--highlight", "white", "--dump-layout", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(result)
        let lines = report["lines"] as! [[String: Any]]
        #expect(lines.count == 1 && lines[0]["text"] as? String == "Your code is ready")
        let region = report["restricted"] as! [String: Double]
        #expect(abs(region["top"]! - (lines[0]["top"] as! Double) - (lines[0]["height"] as! Double)) < 0.01)
        #expect(region["height"]! > 0 && region["width"]! > 0)
        // The highlight path covers the visible line only: one rounded box.
        let path = (report["highlight"] as! [String: Any])["path"] as! String
        #expect(path.filter { $0 == "A" }.count == 4, "\(path)")
    }
}

@Suite struct SmallerFixesTests {
    @Test func theDocumentedPaddingDefaultIsAccepted() throws {
        let plain = try CLI.run(["render", "--text", "pad", "--highlight", "white", "--dump-layout", "-"])
        let spelled = try CLI.run(["render", "--text", "pad", "--highlight", "white", "--padding", "0.3em,0.08em", "--dump-layout", "-"])
        #expect(spelled.status == 0, "\(spelled.stderr)")
        #expect(plain.stdout == spelled.stdout)
    }
}
