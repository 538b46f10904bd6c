import Foundation
import TestSupport
import Testing

private let animated = Fixtures.repo.appendingPathComponent("examples/animated")
private let framesScript = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/animation_frames.py").path

/// Animated cards (issue 52), read back by decoders we did not write: Pillow for animated WebP
/// and APNG, webpmux for WebP's frames, ffprobe for MP4.
@Suite struct AnimationTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// What Pillow reads (see the script).
    func frames(_ file: String, still: String, box: String? = nil) throws -> [String: Any] {
        let run = try runTool("/usr/bin/python3", [framesScript, file, still] + (box.map { [$0] } ?? []))
        #expect(run.status == 0, "\(run.output)")
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
    }

    /// Each example animates (frames that differ), and its last frame is the still card of the
    /// same spec, pixel for pixel, in APNG and lossless WebP; the frames' durations add up to
    /// the animation's length.
    @Test(arguments: ["story-lines-in", "arabic-sweep", "japanese-typewriter", "restricted-reveal", "span-effects"])
    func lastFrameIsTheStillCard(example: String) throws {
        let spec = animated.appendingPathComponent("\(example).json").path
        let still = try CLI.run(["card", spec, "--format", "png", "-o", path("still.png"), "--dump-layout", path("dump.json")])
        #expect(still.status == 0, "\(still.stderr)")
        for (name, extra) in [("a.png", [String]()), ("a.webp", ["--lossless"])] {
            let run = try CLI.run(["card", spec, "-o", path(name)] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            let read = try frames(path(name), still: path("still.png"))
            // Pillow 9.4 reads an animated WebP's durations one frame late (the first as 0, the
            // last lost): libwebp's webpmux reads them from the file.
            let durations = name.hasSuffix("webp") ? try webpmuxDurations(path(name)) : read["durations"] as? [Double] ?? []
            #expect(read["format"] as? String == (name.hasSuffix("png") ? "PNG" : "WEBP"))
            #expect(durations.count > 10, "\(example) \(name): \(durations.count) frames")
            #expect(read["lastVsStill"] as? Int == 0, "\(example) \(name): the last frame differs from the still card")
            #expect(read["loop"] as? Int == 0)
            let total = durations.reduce(0, +)
            // The story gives 3 s; the others last their effects and a second's hold.
            if example == "story-lines-in" { #expect(abs(total - 3000) < 1, "\(name): \(total) ms") } else { #expect(total > 1000) }
        }
    }

    /// The default length: the effects' end and one second on the finished card.
    @Test func lengthAndFramesFollowTheSpec() throws {
        let spec = #"{"size": "320x200", "background": "white", "fps": 10, "loop": 2, "blocks": [{"type": "text", "text": "Hi there", "size": 30, "animation": {"effect": "fade", "duration": 0.5, "delay": 0.5}}]}"#
        try Data(spec.utf8).write(to: dir.appendingPathComponent("c.json"))
        #expect(try CLI.run(["card", path("c.json"), "--format", "png", "-o", path("s.png")]).status == 0)
        let run = try CLI.run(["card", path("c.json"), "-o", path("c.png")])
        #expect(run.status == 0, "\(run.stderr)")
        let read = try frames(path("c.png"), still: path("s.png"))
        let durations = read["durations"] as? [Double] ?? []
        // 2 s at 10 fps: identical frames merged, the still card held to the end.
        #expect(durations.reduce(0, +) == 2000, "\(durations)")
        // t = 0 to 0.5 s (six frames) show nothing yet: one frame of 600 ms.
        #expect(durations == [600, 100, 100, 100, 100, 1000], "\(durations)")
        #expect(read["loop"] as? Int == 2)
        // --duration and --fps win over the keys.
        let flagged = try CLI.run(["card", path("c.json"), "-o", path("f.png"), "--duration", "1.5", "--fps", "20"])
        #expect(flagged.status == 0, "\(flagged.stderr)")
        let sum = (try frames(path("f.png"), still: path("s.png"))["durations"] as? [Double] ?? []).reduce(0, +)
        #expect(sum == 1500)
    }

    /// webpmux (libwebp's own tool) lists the WebP's frames: the first whole, the others the
    /// rectangles that changed, none blended.
    @Test func webpmuxReadsTheFrames() throws {
        let run = try CLI.run(["card", animated.appendingPathComponent("story-lines-in.json").path, "-o", path("s.webp")])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try runTool("/usr/bin/webpmux", ["-info", path("s.webp")])
        #expect(info.status == 0)
        #expect(info.output.contains("Canvas size: 1080 x 1920") && info.output.contains("animation"), "\(info.output)")
        let rows = info.output.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).first?.isNumber == true && $0.contains(":") }
        #expect(rows.count > 10)
        #expect(rows.first?.contains("1080  1920") == true, "\(rows.first ?? "")")
        #expect(rows.dropFirst().allSatisfy { !$0.contains("1080  1920") }, "a later frame is coded whole")
    }

    /// The frames' durations as webpmux lists them.
    func webpmuxDurations(_ file: String) throws -> [Double] {
        let info = try runTool("/usr/bin/webpmux", ["-info", file])
        return info.output.split(separator: "\n").compactMap { row -> Double? in
            let cells = row.split(separator: " ")
            guard cells.count >= 7, cells[0].hasSuffix(":"), Int(cells[0].dropLast()) != nil else { return nil }
            return Double(cells[6])
        }
    }

    /// MP4: H.264, yuv420p, the story's size, 30 fps and 3 s, as ffprobe reads it.
    @Test func mp4PlaysInFfprobe() throws {
        let run = try CLI.run(["card", animated.appendingPathComponent("story-lines-in.json").path, "-o", path("s.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let probe = try runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                      "stream=codec_name,width,height,pix_fmt,r_frame_rate,nb_frames:format=duration",
                                                      "-of", "default=noprint_wrappers=1", path("s.mp4")])
        #expect(probe.status == 0)
        for line in ["codec_name=h264", "width=1080", "height=1920", "pix_fmt=yuv420p", "r_frame_rate=30/1", "nb_frames=90", "duration=3.0"] {
            #expect(probe.output.contains(line), "\(line) in \(probe.output)")
        }
    }

    /// No frame shows a restricted block's hidden lines sharp: inside their region, neighbouring
    /// pixels never differ as much as a glyph's edge does (the same region of the card without
    /// the restriction shows such edges, so the measure can fail).
    @Test func restrictedLinesAreBlurredInEveryFrame() throws {
        let spec = animated.appendingPathComponent("restricted-reveal.json").path
        #expect(try CLI.run(["card", spec, "--format", "png", "-o", path("still.png"), "--dump-layout", path("d.json")]).status == 0)
        let dump = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("d.json")))) as? [String: Any]
        let region = ((dump?["blocks"] as? [[String: Any]])?.first?["restricted"] as? [String: Double]) ?? [:]
        // From half a line below the boundary: the visible line rises in from there (lines-in).
        let box = "\(region["x"] ?? 0),\((region["top"] ?? 0) + 40),\(region["width"] ?? 0),\((region["height"] ?? 0) - 40)"
        #expect((region["width"] ?? 0) > 100, "\(region)")
        let run = try CLI.run(["card", spec, "-o", path("r.png")])
        #expect(run.status == 0, "\(run.stderr)")
        let blurred = try frames(path("r.png"), still: path("still.png"), box: box)["steepest"] as? Int ?? 255
        #expect(blurred < 60, "a frame has an edge of \(blurred) where the hidden lines are")
        // Control: the same text unrestricted has glyph edges there.
        let open = try String(contentsOfFile: spec, encoding: .utf8).replacingOccurrences(of: #""visible-lines": 1, "#, with: "")
        try Data(open.utf8).write(to: dir.appendingPathComponent("open.json"))
        #expect(try CLI.run(["card", path("open.json"), "-o", path("o.png")]).status == 0)
        let sharp = try frames(path("o.png"), still: path("still.png"), box: box)["steepest"] as? Int ?? 0
        #expect(sharp > 120, "the control shows no sharp edge (\(sharp)): the measure cannot tell")
    }

    /// Bad animation specs and flags: one line naming the key or flag, exit 3, no file.
    @Test(arguments: [
        (#"{"blocks": [{"type": "text", "text": "a", "animation": "spin"}]}"#, [], "blocks[0].animation: 'spin' is not one of lines-in"),
        (#"{"blocks": [{"type": "text", "text": "a", "animation": [{"effect": "fade", "duration": -1}]}]}"#, [], "blocks[0].animation[0].duration: must be a number of seconds from 0 to 60"),
        (#"{"blocks": [{"type": "text", "text": "a", "animation": {"effect": "fade", "duration": 1e9}}]}"#, [], "blocks[0].animation.duration: must be a number of seconds from 0 to 60"),
        (#"{"blocks": [{"type": "text", "text": "a", "animation": {"duration": 1}}]}"#, [], "blocks[0].animation.effect: names no effect"),
        (#"{"blocks": [{"type": "text", "text": "a", "animation": {"effect": "fade", "speed": 2}}]}"#, [], "blocks[0].animation.speed: unknown key"),
        (#"{"fps": 0, "blocks": [{"type": "text", "text": "a", "animation": "fade"}]}"#, [], "fps: must be a whole number from 1 to 60, got 0"),
        (#"{"fps": 1000, "blocks": [{"type": "text", "text": "a", "animation": "fade"}]}"#, [], "fps: must be a whole number from 1 to 60, got 1000"),
        (#"{"duration": 0, "blocks": [{"type": "text", "text": "a", "animation": "fade"}]}"#, [], "duration: must be a number of seconds above 0"),
        (#"{"blocks": [{"type": "text", "text": "a", "animation": "fade"}]}"#, ["--fps", "1e6"], "--fps: must be a whole number from 1 to 60"),
        (#"{"blocks": [{"type": "text", "text": "a", "animation": "fade"}]}"#, ["--duration", "60", "--fps", "60"], "more than 64 times the pixel limit"),
        (#"{"size": "200x200", "blocks": [{"type": "text", "text": "a", "animation": "fade"}]}"#, ["--duration", "10", "--max-pixels", "50000"], "more than 64 times the pixel limit"),
    ] as [(String, [String], String)])
    func badAnimationsAreRefused(spec: String, flags: [String], message: String) throws {
        try Data(spec.utf8).write(to: dir.appendingPathComponent("bad.json"))
        let run = try CLI.run(["card", path("bad.json"), "-o", path("bad.webp")] + flags)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("bad.webp")))
    }

    /// MP4 without ffmpeg: a clear line naming the package.
    @Test func mp4WithoutFfmpegNamesThePackage() throws {
        let run = try CLI.run(["card", animated.appendingPathComponent("story-lines-in.json").path, "-o", path("s.mp4")],
                              environment: ["PATH": "/nonexistent"])
        #expect(run.status == 3)
        #expect(run.stderr.contains("needs ffmpeg, which is not installed (Debian: apt-get install ffmpeg)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("s.mp4")))
    }
}

extension AnimationTests {
    /// The layout dump says when each effect of a block runs: lines-in over four lines, 0.15 s
    /// apart and 0.6 s each, ends at 1.05 s; the sweep's four lines one after the other, 1.8 s.
    @Test func theDumpGivesEachEffectsTiming() throws {
        let run = try CLI.run(["card", animated.appendingPathComponent("story-lines-in.json").path, "--format", "png", "-o", path("s.png"),
                               "--dump-layout", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout)) as? [String: Any]
        let blocks = json?["blocks"] as? [[String: Any]] ?? []
        let effects = blocks.first?["animation"] as? [[String: Any]] ?? []
        #expect(effects.map { $0["effect"] as? String } == ["lines-in", "highlight-sweep"])
        #expect(effects.map { $0["end"] as? Double } == [1.05, 1.8])
        #expect(effects.map { $0["parts"] as? Int } == [4, 4])
        #expect((blocks.last?["animation"] as? [[String: Any]])?.first?["start"] as? Double == 1.2)
    }
}

extension AnimationTests {
    /// A batch template with effects writes each row as an animation: the rows' own text in
    /// each, read by Pillow; the still card of a row is its last frame.
    @Test func batchRowsBecomeAnimations() throws {
        let template = ##"{"size": "400x300", "fps": 10, "blocks": [{"type": "text", "text": "{{title}}", "size": 40, "highlight": "#FFD166", "animation": ["lines-in", {"effect": "highlight-sweep", "start": 0}]}]}"##
        try Data(template.utf8).write(to: dir.appendingPathComponent("t.json"))
        try Data("id,title\na,First card\nb,Second one\n".utf8).write(to: dir.appendingPathComponent("rows.csv"))
        let run = try CLI.run(["batch", "--template", path("t.json"), "--data", path("rows.csv"), "--output", "{{id}}.webp",
                               "--out-dir", path("out"), "--quiet", "--lossless"])
        #expect(run.status == 0, "\(run.stderr)")
        let still = try CLI.run(["card", path("t.json"), "--var", "title=First card", "--format", "png", "-o", path("a.png")])
        #expect(still.status == 0, "\(still.stderr)")
        let read = try frames(path("out/a.webp"), still: path("a.png"))
        #expect(read["lastVsStill"] as? Int == 0)
        #expect((read["durations"] as? [Double] ?? []).count > 5)
        let other = try frames(path("out/b.webp"), still: path("a.png"))
        #expect((other["lastVsStill"] as? Int ?? 0) > 0, "row b drew row a's text")
        let mp4 = try CLI.run(["batch", "--template", path("t.json"), "--data", path("rows.csv"), "--output", "{{id}}.mp4",
                               "--out-dir", path("out2"), "--quiet"])
        #expect(mp4.status != 0 && mp4.stderr.contains("MP4: hlrender card"), "\(mp4.stderr)")
    }
}

extension AnimationTests {
    /// compare takes two animations: frame by frame, pixels, count and timing; the APNG and the
    /// lossless WebP of one card match (two containers, two decoders: libwebp's and ours).
    @Test func compareAnimationsFrameByFrame() throws {
        let spec = ##"{"size": "360x640", "padding": 24, "background": "#203A43", "color": "white", "fps": 10, "duration": 2, "blocks": [{"type": "text", "text": "Lines that come in one after the other", "size": 40, "highlight": "#000000CC", "align": "center", "animation": ["lines-in", {"effect": "highlight-sweep", "start": 0}]}]}"##
        try Data(spec.utf8).write(to: dir.appendingPathComponent("s.json"))
        try Data(spec.replacingOccurrences(of: "one after the other", with: "one after another").utf8).write(to: dir.appendingPathComponent("changed.json"))
        for (name, arguments) in [("a.png", [path("s.json")]), ("b.webp", [path("s.json"), "--lossless"]), ("c.png", [path("changed.json")]),
                                  ("d.png", [path("s.json"), "--fps", "20"])] {
            let run = try CLI.run(["card"] + arguments + ["-o", path(name)])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let same = try CLI.run(["compare", path("a.png"), path("b.webp")])
        let sameSaid = String(decoding: same.stdout, as: UTF8.self)
        #expect(same.status == 0 && sameSaid.contains("animations match:") && sameSaid.contains("2000 ms"), "\(sameSaid)")
        let text = try CLI.run(["compare", path("a.png"), path("c.png"), "--diff", path("diff.png")])
        let said = String(decoding: text.stdout, as: UTF8.self)
        #expect(text.status == 1 && said.contains(" frames differ: "), "\(said)")
        #expect(FileManager.default.fileExists(atPath: path("diff.png")))
        let fps = try CLI.run(["compare", path("a.png"), path("d.png"), "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(fps.stdout)) as? [String: Any]
        let expectedFrames = json?["expectedFrames"] as? Int ?? 0, actualFrames = json?["actualFrames"] as? Int ?? 0
        #expect(fps.status == 1 && actualFrames > expectedFrames, "\(json ?? [:])")
        let timing = json?["timing"] as? [Any] ?? []
        #expect(timing.count > 0)
        // --candidates keeps the changed animation, --update replaces the baseline, as for images.
        let kept = try CLI.run(["compare", path("a.png"), path("c.png"), "--candidates", path("cand")])
        #expect(kept.status == 1 && FileManager.default.contentsEqual(atPath: path("cand/c.png"), andPath: path("c.png")), "\(kept.stderr)")
        try FileManager.default.copyItem(atPath: path("a.png"), toPath: path("golden.png"))
        let updated = try CLI.run(["compare", path("golden.png"), path("c.png"), "--update"])
        #expect(updated.status == 0 && FileManager.default.contentsEqual(atPath: path("golden.png"), andPath: path("c.png")), "\(updated.stderr)")
        // An animation and a still image: one line, exit 3.
        #expect(try CLI.run(["card", path("s.json"), "--format", "png", "-o", path("still.png")]).status == 0)
        let mixed = try CLI.run(["compare", path("a.png"), path("still.png")])
        #expect(mixed.status == 3 && mixed.stderr.contains("still.png: not an animation"), "\(mixed.stderr)")
    }

    /// A hostile APNG (a frame outside its canvas, a truncated frame control) is one line and
    /// exit 3, never a crash.
    @Test func hostileAPNGIsRefused() throws {
        #expect(try CLI.run(["card", animated.appendingPathComponent("story-lines-in.json").path, "-o", path("a.png"), "--fps", "2"]).status == 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("a.png"))))
        // The first fcTL's x offset (after its 4-byte sequence, width and height) set past the canvas.
        let at = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("fcTL".utf8) })
        bytes[at + 4 + 12] = 0x7F
        try Data(bytes).write(to: dir.appendingPathComponent("bad.png"))
        let run = try CLI.run(["compare", path("a.png"), path("bad.png")])
        #expect(run.status == 3 && run.stderr.contains("bad.png") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        let cut = Array(bytes[..<(at + 10)])
        try Data(cut).write(to: dir.appendingPathComponent("cut.png"))
        let truncated = try CLI.run(["compare", path("a.png"), path("cut.png")])
        #expect(truncated.status == 3 && !truncated.signalled, "\(truncated.stderr)")
    }
}

extension AnimationTests {
    /// Animated AVIF: avifdec (libavif's own tool) decodes every frame, reads the length at the
    /// fps and the description; its last frame is the still card up to AV1's loss.
    @Test func avifSequenceDecodesInAvifdec() throws {
        let spec = ##"{"size": "320x240", "background": "#1D1D27", "color": "white", "fps": 10, "duration": 2, "blocks": [{"type": "text", "text": "Moving text", "size": 36, "highlight": "#3A86FF", "animation": "lines-in"}]}"##
        try Data(spec.utf8).write(to: dir.appendingPathComponent("s.json"))
        let run = try CLI.run(["card", path("s.json"), "-o", path("s.avif"), "--quality", "95"])
        #expect(run.status == 0, "\(run.stderr)")
        let info = try runTool("/usr/bin/avifdec", ["--info", path("s.avif")])
        #expect(info.status == 0)
        #expect(info.output.contains("10 timescales per second, 2.00 seconds (20 timescales)"), "\(info.output)")
        #expect(info.output.contains("XMP Metadata   : Present"), "\(info.output)")
        let frames = Int(info.output.split(separator: "\n").first { $0.contains("expected frames") }?
            .split(separator: "(").last?.split(separator: " ").first ?? "") ?? 0
        #expect(frames > 3, "\(info.output)")
        let last = try runTool("/usr/bin/avifdec", ["--index", "\(frames - 1)", path("s.avif"), path("last.png")])
        #expect(last.status == 0)
        #expect(try CLI.run(["card", path("s.json"), "--format", "png", "-o", path("still.png")]).status == 0)
        let compare = try CLI.run(["compare", path("still.png"), path("last.png"), "--threshold", "0.2"])
        #expect(compare.status == 0, "\(String(decoding: compare.stdout, as: UTF8.self))")
    }
}

extension AnimationTests {
    /// `render --animation` animates its one text block (the same row as a card's key);
    /// a bad effect is one line naming the flag.
    @Test func renderTakesAnimationFlags() throws {
        let run = try CLI.run(["render", "--text", "Hello there, this moves", "--highlight", "#FFD166",
                               "--animation", "lines-in,highlight-sweep", "--fps", "10", "-o", path("r.png")])
        #expect(run.status == 0, "\(run.stderr)")
        let still = try CLI.run(["render", "--text", "Hello there, this moves", "--highlight", "#FFD166", "-o", path("s.png")])
        #expect(still.status == 0)
        let read = try frames(path("r.png"), still: path("s.png"))
        #expect(read["lastVsStill"] as? Int == 0 && (read["durations"] as? [Double] ?? []).count > 3, "\(read)")
        let bad = try CLI.run(["render", "--text", "x", "--animation", "spin", "-o", path("bad.webp")])
        #expect(bad.status == 3 && bad.stderr.contains("--animation: 'spin' is not one of"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("bad.webp")))
    }
}

extension AnimationTests {
    /// The spec is parsed under the run's link policy whatever the output: a scheme the
    /// operator allowed with --link-schemes is taken for a .png or .webp output too, still or
    /// animated (the check for effects once parsed with the default policy and refused it).
    @Test func theAnimationCheckKeepsTheRunsLinkPolicy() throws {
        let spec = #"{"size": "300x120", "padding": 8, "fps": 5, "blocks": [{"type": "text", "spans": [{"text": "x "}, {"text": "call", "link": "tel:123"}]}]}"#
        try Data(spec.utf8).write(to: dir.appendingPathComponent("still.json"))
        try Data(spec.replacingOccurrences(of: #""type": "text""#, with: #""type": "text", "animation": "fade""#).utf8)
            .write(to: dir.appendingPathComponent("moving.json"))
        for (file, out) in [("still.json", "s.png"), ("moving.json", "m.webp")] {
            let refused = try CLI.run(["card", path(file), "-o", path(out)])
            #expect(refused.status == 3 && refused.stderr.contains("tel:"), "\(refused.stderr)")
            let run = try CLI.run(["card", path(file), "-o", path(out), "--link-schemes", "tel"])
            #expect(run.status == 0, "\(file): \(run.stderr)")
        }
    }
}
