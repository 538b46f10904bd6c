import Codecs
import Foundation
import Support
import TestSupport
import Testing

/// A golden suite's animated card is recorded as an APNG and judged frame by frame: its
/// frames' pixels, their count and their timing (a still golden would test the last frame only).
@Suite struct AnimatedGoldenTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func suite(highlight: String = "#E91E63", duration: Int = 1, _ extra: [String] = []) throws -> CLIResult {
        let spec = ##"{"output": "story.png", "size": "240x160", "background": "#203040", "color": "white", "fps": 10, "duration": \##(duration), "##
            + ##""blocks": [{"type": "text", "text": "Lines come in", "size": 24, "highlight": "\##(highlight)", "animation": "lines-in"}]}"##
        try Data((spec + "\n").utf8).write(to: dir.appendingPathComponent("cards.jsonl"))
        return try CLI.run(["batch", path("cards.jsonl"), "--expect-dir", path("goldens"), "--quiet"] + extra, pinnedFonts: false)
    }

    @Test func animatedCardsAreComparedFrameByFrame() throws {
        // A still golden (as suites recorded animated cards before): changed, and --update
        // records the animation in its place.
        try FileManager.default.createDirectory(atPath: path("goldens"), withIntermediateDirectories: true)
        let still = try CLI.run(["card", "-", "-o", path("goldens/story.png")], stdin: Array(##"{"size": "240x160", "background": "#203040", "blocks": []}"##.utf8),
                                pinnedFonts: false)
        #expect(still.status == 0, "\(still.stderr)")
        let stale = try suite([])
        #expect(stale.status == 1 && stale.stderr.contains("the card is an animation now, its golden a still image"), "\(stale.stderr)")
        let recorded = try suite(["--update"])
        #expect(recorded.status == 0 && recorded.stderr.contains("recorded 1 (0 new, 1 changed)"), "\(recorded.stderr)")
        // The golden is the animation, read back frame by frame by the APNG reader.
        let golden = try Posix.readFile(path("goldens/story.png"), as: "golden", limit: 1 << 24)
        #expect(AnimationFrames.isAnimation(golden))
        let frames = try AnimationFrames(golden, maxPixels: 1 << 24)
        #expect(frames.count > 2)
        // And by Pillow, a reader we did not write: as many frames, lasting the card's second,
        // the last one the still card.
        let card = try String(contentsOfFile: path("cards.jsonl"), encoding: .utf8)
        let stillCard = try CLI.run(["card", "-", "--format", "png", "-o", path("still.png")], stdin: Array(card.utf8), pinnedFonts: false)
        #expect(stillCard.status == 0, "\(stillCard.stderr)")
        let script = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/animation_frames.py").path
        let pillow = try runTool("/usr/bin/python3", [script, path("goldens/story.png"), path("still.png")])
        let read = try JSONSerialization.jsonObject(with: Data(pillow.output.utf8)) as? [String: Any] ?? [:]
        #expect(pillow.status == 0 && read["format"] as? String == "PNG", "\(pillow.output)")
        #expect(read["frames"] as? Int == frames.count, "\(read)")
        #expect((read["durations"] as? [Double] ?? []).reduce(0, +) == 1000, "\(read)")
        #expect(read["lastVsStill"] as? Int == 0, "\(read)")
        let same = try suite(["--render-all"])
        #expect(same.status == 0 && same.stderr.contains("goldens: 1 same"), "\(same.stderr)")
        // Another highlight: the frames where it shows differ, named with their time.
        let recoloured = try suite(highlight: "#00FF00")
        #expect(recoloured.status == 1 && recoloured.stderr.contains("goldens: 1 changed"), "\(recoloured.stderr)")
        #expect(recoloured.stderr.range(of: #"\d+ of \d+ frames differ: 2 \(at 100 ms, \d+ pixels\)"#, options: .regularExpression) != nil,
                "\(recoloured.stderr)")
        // Longer: the last frame shows longer, the frames' pixels are the same.
        let longer = try suite(duration: 2)
        #expect(longer.status == 1 && longer.stderr.contains("timing differs"), "\(longer.stderr)")
        #expect(!longer.stderr.contains("frames differ"), "\(longer.stderr)")
    }
}
