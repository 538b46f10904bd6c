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
}
