import Foundation
import TestSupport
import Testing

/// What a new user meets in the first hour: outputs on standard output, names without an
/// extension, the bare command, the version, text that does not fit, variables nobody uses.
@Suite struct FirstHourTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    @Test func standardOutputByDashOrDevice() throws {
        let dash = try CLI.run(["render", "--text", "piped", "-o", "-"])
        #expect(dash.status == 0 && dash.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(dash.stderr)")
        let webp = try CLI.run(["render", "--text", "piped", "--format", "webp", "-o", "-"])
        #expect(webp.status == 0 && webp.stdout.starts(with: Array("RIFF".utf8)), "\(webp.stderr)")
        // The test's standard output is a pipe: /dev/stdout links to "pipe:[N]", which is no path.
        let device = try CLI.run(["render", "--text", "piped", "--format", "svg", "-o", "/dev/stdout"])
        #expect(device.status == 0 && String(decoding: device.stdout, as: UTF8.self).contains("<svg"), "\(device.stderr)")
    }

    @Test func aNameWithoutExtensionSaysSo() throws {
        let result = try CLI.run(["render", "--text", "x", "-o", path("card")])
        #expect(result.status == 3)
        #expect(result.stderr.contains("has no extension") && result.stderr.contains("card.png") && result.stderr.contains("--format"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("card")))
    }

    @Test func bareCommandPrintsTheUsageAndVersionTheLibraries() throws {
        let bare = try CLI.run([], pinnedFonts: false)
        let usage = String(decoding: bare.stdout, as: UTF8.self)
        #expect(bare.status == 0 && usage.contains("USAGE: hlrender") && usage.contains("fonts"), "\(bare.stderr)")
        let version = try CLI.run(["--version"], pinnedFonts: false)
        let text = String(decoding: version.stdout, as: UTF8.self)
        #expect(text.hasPrefix("hlrender "))
        for library in ["Cairo", "HarfBuzz", "FreeType", "Fontconfig", "ICU", "libpng", "libwebp", "libavif"] {
            #expect(text.contains("\n  \(library) "), "\(library) missing from --version: \(text)")
        }
    }

    /// Issue 53: `--version` loaded libavif and its 27 codec libraries (12 ms) to print a
    /// version; it names the header's and loads none of them (the dynamic loader says).
    @Test func versionLoadsNoEncoderLibrary() throws {
        let traced = try CLI.run(["--version"], pinnedFonts: false, environment: ["LD_DEBUG": "files"])
        #expect(traced.status == 0)
        #expect(!traced.stderr.contains("libavif") && !traced.stderr.contains("libaom") && !traced.stderr.contains("librsvg"), "\(traced.stderr.prefix(2000))")
        #expect(String(decoding: traced.stdout, as: UTF8.self).contains("libavif 1") || String(decoding: traced.stdout, as: UTF8.self).contains("libavif 0"))
    }

    /// Issue 53: `--width 10` broke each word into letters and hyphens wider than 10 px, and
    /// the canvas made for the text (no --canvas) cut the hyphens off with a warning. The
    /// block holds its lines, so the canvas does, and nothing is said.
    @Test func aNarrowWidthKeepsItsHyphensOnTheCanvas() throws {
        let result = try CLI.run(["render", "--text", "Hyphenation everywhere", "--width", "10", "-o", path("narrow.png"), "--dump-layout", "-"])
        #expect(result.status == 0 && !result.stderr.contains("cut off"), "\(result.stderr)")
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let width = try #require(dump["width"] as? Double)
        let lines = try #require(dump["lines"] as? [[String: Any]])
        #expect(lines.count > 10)
        for line in lines {
            let right = (line["x"] as? Double ?? 0) + (line["width"] as? Double ?? .infinity)
            #expect(right <= width, "a line reaches \(right) on a \(width) px canvas")
        }
    }

    /// A fixed canvas too small: a warning (the picture as asked), or with --fit a smaller size
    /// whose lines all lie inside the margin.
    @Test func textThatDoesNotFitWarnsOrFits() throws {
        let text = "A fairly long text that will never fit into such a small canvas at this size, clearly"
        let cut = try CLI.run(["render", "--text", text, "--size", "40", "--canvas", "300x160", "-o", path("cut.png")])
        #expect(cut.status == 0 && cut.stderr.contains("cut off") && cut.stderr.contains("--fit"), "\(cut.stderr)")
        let fit = try CLI.run(["render", "--text", text, "--size", "40", "--canvas", "300x160", "--fit", "-o", path("fit.png"),
                               "--dump-layout", "-"])
        #expect(fit.status == 0 && fit.stderr.isEmpty, "\(fit.stderr)")
        let dump = try JSONSerialization.jsonObject(with: Data(fit.stdout)) as! [String: Any]
        let lines = dump["lines"] as! [[String: Any]]
        #expect(lines.count >= 2)
        for line in lines {
            let top = line["top"] as! Double, height = line["height"] as! Double
            // 40 px Noto Sans lines are 54 px apart: a fitted size is smaller.
            #expect(height < 40, "line height \(height): not shrunk")
            #expect(top >= 32 - 0.5 && top + height <= 160 - 32 + 0.5, "line \(line) outside the margin")
        }
        let small = try CLI.run(["render", "--text", "short", "--canvas", "300x160", "-o", path("ok.png")])
        #expect(small.status == 0 && small.stderr.isEmpty, "\(small.stderr)")
        let noCanvas = try CLI.run(["render", "--text", text, "--fit", "-o", path("no.png")])
        #expect(noCanvas.status == 3 && noCanvas.stderr.contains("--canvas"), "\(noCanvas.stderr)")
    }

    @Test func anUnusedVariableWarns() throws {
        let spec = #"{"size": "400x200", "blocks": [{"type": "text", "text": "Hi {{name}}"}]}"#
        try Data(spec.utf8).write(to: URL(fileURLWithPath: path("card.json")))
        let result = try CLI.run(["card", path("card.json"), "--var", "name=Ana", "--var", "nmae=typo", "-o", path("card.png")])
        #expect(result.status == 0)
        #expect(result.stderr == "hlrender: warning: --var nmae: \(path("card.json")) has no {{nmae}}\n", "\(result.stderr)")
    }
}
