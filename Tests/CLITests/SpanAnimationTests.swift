import Foundation
import TestSupport
import Testing

private let regionsScript = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/animation_regions.py").path

/// Effects on spans (issue 52: "per block and per span"): a span moves on its own while the
/// rest of its block stands still, read back frame by frame by Pillow.
@Suite struct SpanAnimationTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let spec = ##"{"size": "640x200", "padding": 20, "background": "white", "color": "black", "fps": 10, "duration": 2, "blocks": [{"type": "text", "size": 48, "spans": [{"text": "Still "}, {"text": "swept", "highlight": "#FFD166", "animation": {"effect": "highlight-sweep", "duration": 1, "easing": "linear"}}, {"text": " "}, {"text": "later", "animation": {"effect": "fade", "start": 1, "duration": 0.5}}]}]}"##

    /// The plain words are drawn from the first frame as in the still card; the swept span's
    /// highlight grows from its start (its left quarter is there at 0.5 s, its right quarter
    /// not yet); the faded span is missing until 1 s; the last frame is the still card.
    @Test func aSpanMovesWhileTheRestStandsStill() throws {
        try Data(Self.spec.utf8).write(to: dir.appendingPathComponent("s.json"))
        let still = try CLI.run(["card", path("s.json"), "--format", "png", "-o", path("still.png"), "--dump-layout", path("d.json")])
        #expect(still.status == 0, "\(still.stderr)")
        let dump = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("d.json")))) as? [String: Any]
        let block = try #require((dump?["blocks"] as? [[String: Any]])?.first)
        let spans = block["spans"] as? [[String: Any]] ?? []
        func box(_ start: Int) throws -> [Double] {
            let span = try #require(spans.first { $0["start"] as? Int == start }, "no span at \(start) in \(spans)")
            let b = try #require((span["boxes"] as? [[String: Double]])?.first)
            return [b["x"] ?? 0, b["top"] ?? 0, b["width"] ?? 0, b["height"] ?? 0]
        }
        let swept = try box(6), later = try box(12)
        // The dump times each span's effects on the card's clock.
        let timing = spans.first { $0["start"] as? Int == 12 }?["animation"] as? [[String: Any]] ?? []
        #expect(timing.map { $0["effect"] as? String } == ["fade"] && timing.first?["start"] as? Double == 1
                && timing.first?["end"] as? Double == 1.5, "\(timing)")
        let plainX = block["x"] as? Double ?? 0
        let regions = [
            [plainX, swept[1], swept[0] - plainX - 24, swept[3]],                 // "Still", clear of the highlight's padding
            [swept[0], swept[1], swept[2] / 4, swept[3]],                         // the swept span's left quarter
            [swept[0] + swept[2] * 3 / 4, swept[1], swept[2] / 4, swept[3]],       // its right quarter
            later,
        ].map { $0.map { String(Int($0)) }.joined(separator: ",") }.joined(separator: ";")
        let run = try CLI.run(["card", path("s.json"), "-o", path("a.png")])
        #expect(run.status == 0, "\(run.stderr)")
        let read = try runTool("/usr/bin/python3", [regionsScript, path("a.png"), path("still.png"), regions])
        #expect(read.status == 0, "\(read.output)")
        let json = try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any]
        let durations = json?["durations"] as? [Double] ?? []
        let diffs = json?["regions"] as? [[Int]] ?? []
        #expect(diffs.count == durations.count && diffs.count > 5, "\(durations)")
        // The frame shown at `ms`.
        func frame(at ms: Double) -> [Int] {
            var clock = 0.0
            for (index, duration) in durations.enumerated() {
                if ms < clock + duration { return diffs[index] }
                clock += duration
            }
            return diffs.last ?? []
        }
        #expect(diffs.allSatisfy { $0[0] == 0 }, "the still words changed in some frame: \(diffs.map { $0[0] })")
        let first = frame(at: 0), middle = frame(at: 550), end = frame(at: 1999)
        #expect(first[1] > 100 && first[3] > 100, "at 0 s the highlight or the faded word is there: \(first)")
        #expect(middle[1] <= 8 && middle[2] > 100 && middle[3] > 100, "at 0.55 s: \(middle)")
        #expect(end == [0, 0, 0, 0], "the last frame is not the still card: \(end)")
    }

    /// Bad span effects: one line naming the span's key; more animated spans than a block may
    /// have is refused, as the limit says.
    @Test(arguments: [
        (#"{"blocks": [{"type": "text", "spans": [{"text": "a", "animation": "spin"}]}]}"#, "blocks[0].spans[0].animation: 'spin' is not one of"),
        (#"{"blocks": [{"type": "text", "spans": [{"text": "a"}, {"text": "b", "animation": "restricted"}]}]}"#,
         "blocks[0].spans[1].animation: restricted reveals a block's hidden lines; a span cannot have it"),
        (#"{"blocks": [{"type": "text", "spans": [{"text": "a", "animation": {"effect": "fade", "duration": -2}}]}]}"#,
         "blocks[0].spans[0].animation.duration: must be a number of seconds from 0 to 60"),
        // 257 animated spans (written out here: a long argument would fill the test log).
        (#"{"blocks": [{"type": "text", "spans": "257 fading"}]}"#, "more than 256 spans have an animation"),
    ] as [(String, String)])
    func badSpanEffectsAreRefused(spec: String, message: String) throws {
        let many = "[" + Array(repeating: #"{"text": "a ", "animation": "fade"}"#, count: 257).joined(separator: ",") + "]"
        let spec = spec.replacingOccurrences(of: #""257 fading""#, with: many)
        try Data(spec.utf8).write(to: dir.appendingPathComponent("bad.json"))
        let run = try CLI.run(["card", path("bad.json"), "-o", path("bad.webp")])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("bad.webp")))
    }
}
