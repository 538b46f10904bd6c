@testable import Goldens
import Compare
import Support
import Testing

/// What changed in a card, from the spec and layout recorded with its golden.
@Suite struct LayoutExplanationTests {
    func record(x: Double = 10, y: Double = 20, width: Double = 200, lines: [String] = ["Hello brave ", "new world"],
                fonts: [String] = ["Noto Sans"], spanColour: String = "#FF0000FF", spec: [(String, JSONValue)] = []) -> JSONValue {
        let lineValues = lines.map { JSONValue.object([("text", .string($0)), ("fonts", .array(fonts.map(JSONValue.string)))]) }
        let span = JSONValue.object([("start", .number(0)), ("end", .number(5)), ("style", .object([("color", .string(spanColour))]))])
        let block = JSONValue.object([("type", .string("text")), ("x", .number(x)), ("y", .number(y)), ("width", .number(width)),
                                      ("height", .number(40)), ("lines", .array(lineValues)), ("spans", .array([span]))])
        let layout = JSONValue.object([("width", .number(400)), ("height", .number(300)), ("blocks", .array([block]))])
        return LayoutExplanation.record(spec: .object(spec + [("blocks", .array([.object([("type", .string("text"))])]))]), layout: layout)
    }

    @Test func eachKindOfChangeIsNamedWithItsNode() {
        let base = record()
        #expect(LayoutExplanation.explain(expected: base, actual: base).isEmpty)
        #expect(LayoutExplanation.explain(expected: base, actual: record(x: 14, y: 8)) == ["blocks[0]: moved (4, -12)"])
        #expect(LayoutExplanation.explain(expected: base, actual: record(lines: ["Hello ", "brave new world"]))
                == [#"blocks[0]: rewrapped, 2 lines -> 2; line 1 "Hello brave" -> "Hello""#])
        #expect(LayoutExplanation.explain(expected: base, actual: record(lines: ["Hello bold ", "new world"]))
                == [#"blocks[0]: text changed: -"brave" +"bold""#])
        #expect(LayoutExplanation.explain(expected: base, actual: record(fonts: ["Noto Sans Mono"]))
                == ["blocks[0]: font Noto Sans -> Noto Sans Mono"])
        #expect(LayoutExplanation.explain(expected: base, actual: record(spanColour: "#00FF00FF"))
                == [##"blocks[0].spans[0] "Hello": colour (color "#FF0000FF" -> "#00FF00FF")"##])
        // A card-level key: its kind and both values.
        #expect(LayoutExplanation.explain(expected: base, actual: record(spec: [("color", .string("yellow"))]))
                == [#"card: colour (color unset -> "yellow")"#])
    }

    /// A node is one rectangle: a span over two lines is the box around both, at the card's
    /// scale, rounded outwards (each is a region every compared pixel is tested against).
    @Test func aNodeIsOneRectangleAroundItsBoxes() {
        let box = { (x: Double, top: Double) in JSONValue.object([("x", .number(x)), ("top", .number(top)), ("width", .number(10.2)), ("height", .number(5))]) }
        let span = JSONValue.object([("start", .number(0)), ("end", .number(3)), ("boxes", .array([box(4, 2), box(1.5, 9)]))])
        let block = JSONValue.object([("type", .string("text")), ("x", .number(1)), ("y", .number(2)), ("width", .number(20)), ("height", .number(12)),
                                      ("spans", .array([span]))])
        let record = LayoutExplanation.record(spec: .null, layout: .object([("scale", .number(2)), ("blocks", .array([block]))]))
        #expect(LayoutExplanation.box(of: "blocks[0]", in: record) == PixelRect(x: 2, y: 4, width: 40, height: 24))
        #expect(LayoutExplanation.box(of: "blocks[0].spans[0]", in: record) == PixelRect(x: 3, y: 4, width: 26, height: 24))
        #expect(LayoutExplanation.box(of: "blocks[1]", in: record) == nil && LayoutExplanation.box(of: "blocks[0].spans[1]", in: record) == nil)
        #expect(LayoutExplanation.node("blocks[x]") == nil && LayoutExplanation.node("blocks[1].lines[0]") == nil)
    }

    @Test func wordDiffKeepsWhatBothShare() {
        #expect(LayoutExplanation.wordDiff("a b c d", "a x c d") == #"-"b" +"x""#)
        #expect(LayoutExplanation.wordDiff("a b", "a b c") == #"+"c""#)
        #expect(LayoutExplanation.wordDiff("a  b", "a b") == "spacing only")
    }

    /// A stack's children are nodes too (`blocks[0].blocks[1]`, with spans): a change inside
    /// one is named there, a child is "moved" only beyond its stack's own move, and an
    /// `ignore` node finds the child's box.
    @Test func stackChildrenAreNodes() {
        func record(stackY: Double, childY: Double, text: String) -> JSONValue {
            let box = JSONValue.object([("x", .number(12)), ("top", .number(childY)), ("width", .number(30)), ("height", .number(10))])
            let span = JSONValue.object([("start", .number(0)), ("end", .number(2)), ("boxes", .array([box]))])
            let child = { (y: Double, line: String) in
                JSONValue.object([("type", .string("text")), ("x", .number(10)), ("y", .number(y)), ("width", .number(100)),
                                  ("height", .number(20)), ("lines", .array([.object([("text", .string(line))])])), ("spans", .array([span]))])
            }
            let stack = JSONValue.object([("type", .string("stack")), ("x", .number(10)), ("y", .number(stackY)), ("width", .number(100)),
                                          ("height", .number(50)), ("blocks", .array([child(stackY, "first"), child(childY, text)]))])
            return LayoutExplanation.record(spec: .null, layout: .object([("blocks", .array([stack]))]))
        }
        let base = record(stackY: 0, childY: 30, text: "second line")
        // The whole stack moves: its children with it, named once.
        #expect(LayoutExplanation.explain(expected: base, actual: record(stackY: 8, childY: 38, text: "second line")) == ["blocks[0]: moved (0, 8)"])
        // Inside: the second child moved and its text changed.
        #expect(LayoutExplanation.explain(expected: base, actual: record(stackY: 0, childY: 34, text: "second word"))
                == ["blocks[0].blocks[1]: moved (0, 4)", #"blocks[0].blocks[1]: text changed: -"line" +"word""#])
        #expect(LayoutExplanation.box(of: "blocks[0].blocks[1]", in: base) == PixelRect(x: 10, y: 30, width: 100, height: 20))
        #expect(LayoutExplanation.box(of: "blocks[0].blocks[1].spans[0]", in: base) == PixelRect(x: 12, y: 30, width: 30, height: 10))
        #expect(LayoutExplanation.box(of: "blocks[0].blocks[2]", in: base) == nil)
        #expect(LayoutExplanation.node("blocks[0].spans[1].blocks[0]") == nil && LayoutExplanation.node("blocks[0].blocks[3]")?.blocks == [0, 3])
        #expect(LayoutExplanation.node(Array(repeating: "blocks[0]", count: 40).joined(separator: ".")) == nil)
    }
}
