@testable import Goldens
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

    @Test func wordDiffKeepsWhatBothShare() {
        #expect(LayoutExplanation.wordDiff("a b c d", "a x c d") == #"-"b" +"x""#)
        #expect(LayoutExplanation.wordDiff("a b", "a b c") == #"+"c""#)
        #expect(LayoutExplanation.wordDiff("a  b", "a b") == "spacing only")
    }
}
