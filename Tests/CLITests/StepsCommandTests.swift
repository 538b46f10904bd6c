import Codecs
import Render
import Compare
import Foundation
import TestSupport
import Testing

struct DumpedStep {
    var side: String
    var dot: (top: Double, bottom: Double, x: Double)
    var text: (top: Double, bottom: Double, x: Double, width: Double)
}

func dumpSteps(_ arguments: [String]) throws -> (width: Int, height: Int, steps: [DumpedStep]) {
    let result = try CLI.run(["steps"] + arguments + ["--dump-layout", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
    let steps = (json["steps"] as! [[String: Any]]).map { step -> DumpedStep in
        let dot = step["dot"] as! [String: Double], text = step["text"] as! [String: Double]
        return DumpedStep(side: step["side"] as! String,
                          dot: (dot["top"]!, dot["top"]! + dot["height"]!, dot["x"]!),
                          text: (text["top"]!, text["top"]! + text["height"]!, text["x"]!, text["width"]!))
    }
    return (json["width"] as! Int, json["height"] as! Int, steps)
}

let stepsFile = Fixtures.corpus.appendingPathComponent("steps.txt").path

@Suite struct StepsCommandTests {
    @Test func seedExampleHoldsEveryConstraintAndIsShorterThanStacking() throws {
        let (width, height, steps) = try dumpSteps(["--steps-file", stepsFile, "--canvas", "1080xauto", "--size", "36"])
        #expect(width == 1080 && steps.count == 4)
        #expect(steps.map(\.side) == ["left", "right", "left", "right"])
        for (a, b) in zip(steps, steps.dropFirst()) {
            #expect(a.dot.bottom <= b.text.top + 0.01)
            #expect(a.text.bottom <= b.dot.top + 0.01)
            let tight = abs(b.text.top - a.dot.bottom) <= 0.01 || abs(b.dot.top - a.text.bottom) <= 0.01
            #expect(tight, "a step is higher than it must be")
        }
        for (a, c) in zip(steps, steps.dropFirst(2)) { #expect(a.text.bottom <= c.text.top + 0.01) }
        for step in steps {
            #expect(abs((step.dot.top + step.dot.bottom) / 2 - (step.text.top + step.text.bottom) / 2) < 0.01)
        }
        // Both text columns are equally wide; dots share one column at the centre.
        #expect(Set(steps.map { $0.text.width }).count == 1)
        #expect(Set(steps.map { $0.dot.x }).count == 1)
        let stacked = steps.reduce(0.0) { $0 + max($1.text.bottom - $1.text.top, $1.dot.bottom - $1.dot.top) }
        let used = steps.map { max($0.dot.bottom, $0.text.bottom) }.max()! - steps.map { min($0.dot.top, $0.text.top) }.min()!
        #expect(used < stacked, "packed \(used) vs stacked \(stacked)")
        #expect(Double(height) < stacked + 2 * 32 + 1)
    }

    @Test func rightToLeftMirrorsTheFirstSide() throws {
        let (_, _, steps) = try dumpSteps(["--step", "الخطوة الأولى", "--step", "الخطوة الثانية"])
        #expect(steps.map(\.side) == ["right", "left"])
        let (_, _, forced) = try dumpSteps(["--step", "one", "--step", "two", "--first-side", "right"])
        #expect(forced.map(\.side) == ["right", "left"])
    }

    static let sevenSteps = ["Sign up", "Confirm your email address by opening the link we sent you",
                             "Pick a plan", "Add a payment method that will be charged monthly", "Invite your team",
                             "Set up the first project with a template or from scratch", "Done"]

    @Test(arguments: [
        ("one-step-left", ["--step", "Only one step here"]),
        ("two-steps-long-right-first", ["--step", "A long first step that wraps onto several lines in its column",
                                        "--step", "A second long step, also wrapping in its own column", "--first-side", "right"]),
        ("four-steps-seed", ["--steps-file", "STEPS", "--connector", "--current", "2"]),
        ("seven-steps-mixed-right-first", ["--first-side", "right", "--highlight", "#FFD43B", "--background", "#1C2541",
                                           "--connector"] + sevenSteps.flatMap { ["--step", $0] }),
    ])
    func stepsGolden(name: String, arguments: [String]) throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("steps.png").path
        let args = arguments.map { $0 == "STEPS" ? stepsFile : $0 }
        let result = try CLI.run(["steps", "--canvas", "720xauto", "--size", "28", "-o", out] + args)
        #expect(result.status == 0, "\(result.stderr)")
        try Golden.check([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))), area: "steps", name: name)
    }

    @Test(arguments: [
        ([] as [String], "no steps"),
        (["--steps-file", "/nonexistent"], "cannot read steps file '/nonexistent'"),
        (["--step", "a", "--current", "3"], "--current: must be between 1 and 1"),
        (["--step", "a", "--dot-size", "0"], "--dot-size: must be a positive"),
        (["--step", "a", "--canvas", "40xauto"], "--margin: leaves no room inside a 40xauto canvas"),
        (["--step", "a", "--canvas", "100xauto"], "no room for text"),
        (["--step", "a", "--dot-color", "nope"], "--dot-color: 'nope' is not a colour"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["steps", "-o", dir.appendingPathComponent("s.png").path] + arguments)
        #expect(result.status == 3)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}

@Suite struct StepsAlignmentTests {
    @Test func textsHugTheDotsUnlessAligned() throws {
        let dump = { (args: [String]) -> [[String: Any]] in
            let result = try CLI.run(["steps", "--step", "a short one", "--step", "another", "--dump-layout", "-"] + args)
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
            return json["steps"] as! [[String: Any]]
        }
        let hug = try dump([])
        let left = try dump(["--align", "left"])
        func line(_ step: [String: Any]) -> (x: Double, width: Double) {
            let l = (step["lines"] as! [[String: Any]])[0]
            return (l["x"] as! Double, l["width"] as! Double)
        }
        func column(_ step: [String: Any]) -> (x: Double, width: Double) {
            let t = step["text"] as! [String: Double]
            return (t["x"]!, t["width"]!)
        }
        // Default: the left text ends at its column's right edge (next to the dot).
        #expect(abs(line(hug[0]).x + line(hug[0]).width - (column(hug[0]).x + column(hug[0]).width)) < 0.01)
        #expect(abs(line(hug[1]).x - column(hug[1]).x) < 0.01)
        // --align left: the left text starts at its column's left edge.
        #expect(abs(line(left[0]).x - column(left[0]).x) < 0.01)
    }
}

@Suite struct StepsDotTests {
    @Test func hollowDotsHideTheConnectorOnATransparentBackground() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("s.png").path
        let result = try CLI.run(["steps", "--steps-file", stepsFile, "--connector", "--current", "2", "--dot-color", "red",
                                  "--background", "transparent", "-o", out, "--dump-layout", "-"])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        let centres = (json["steps"] as! [[String: Any]]).map { step -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) in
            let dot = step["dot"] as! [String: Double]
            return image[Int(dot["x"]! + dot["width"]! / 2), Int(dot["top"]! + dot["height"]! / 2)]
        }
        // Done and current dots are filled red; the later, hollow ones are empty inside.
        #expect(centres[0] == (255, 0, 0, 255) && centres[1] == (255, 0, 0, 255))
        #expect(centres[2].a == 0 && centres[3].a == 0)
    }
}
