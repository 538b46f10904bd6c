import Batch
import Support
import Testing

/// A golden suite's record read a card a line (`RecordLines`): the layout `save` writes is
/// read with each line's bytes; any other layout is left to the general parser.
@Suite struct RecordLinesTests {
    static let head = "{\n  \"format\": 2,\n  \"fonts\": [\n    {\"path\": \"/f/a.ttf\", \"stamp\": \"1:2\", \"sha256\": \"ab\"}\n  ],\n  \"cards\": {"
    static let first = #""a\"b.png": {"key": "k1", "status": "same", "golden": {"path": "g/a.png", "stamp": "3:4", "sha256": "cd"}, "files": []}"#
    static let second = #""é/c.png": {"key": "k2", "status": "within", "golden": {"path": "g/c.png", "stamp": "5:6", "sha256": "ef"}, "files": [{"path": "p.png", "stamp": "7:8", "sha256": "01"}]}"#

    static func record(_ lines: [String], tail: String = "\n  }\n}\n") -> [UInt8] {
        Array((head + lines.map { "\n    " + $0 }.joined(separator: ",") + tail).utf8)
    }

    @Test func aRecordAsSavedIsReadLineByLineWithItsBytes() throws {
        let read = try #require(RecordLines(Self.record([Self.first, Self.second])))
        #expect(read.cards.map(\.name) == ["a\"b.png", "é/c.png"])
        #expect(read.cards.map { String(decoding: $0.line, as: UTF8.self) } == [Self.first, Self.second])
        #expect(read.cards[1].value["status"] == .string("within"))
        #expect(read.cards[1].value == (try JSONValue.parse(Array(Self.second.utf8.dropFirst(11)))))
        #expect(read.sorted)
        #expect(read.head["format"] == .number(2))
        if case let .array(fonts)? = read.head["fonts"] { #expect(fonts.count == 1) } else { Issue.record("no fonts in \(read.head)") }
        // Byte order: "é" (0xC3) after "a"; the other way round is not sorted.
        #expect(RecordLines(Self.record([Self.second, Self.first]))?.sorted == false)
        // No cards at all.
        let empty = try #require(RecordLines(Array((Self.head + "}\n}\n").utf8)))
        #expect(empty.cards.isEmpty)
    }

    @Test func anyOtherLayoutIsLeftToTheGeneralParser() throws {
        // A card's line damaged, text after the record, a brace missing, pretty-printed JSON.
        #expect(RecordLines(Self.record([Self.first, String(Self.second.dropLast())])) == nil)
        #expect(RecordLines(Self.record([Self.first], tail: "\n  }\n}\n{}\n")) == nil)
        #expect(RecordLines(Self.record([Self.first], tail: "\n  }\n")) == nil)
        #expect(RecordLines(Self.record([Self.first, #""x.png": 3"#])) == nil)
        let pretty = "{\n  \"format\": 2,\n  \"fonts\": [],\n  \"cards\": {\n    \"a.png\": {\n      \"key\": \"k\"\n    }\n  }\n}\n"
        #expect(RecordLines(Array(pretty.utf8)) == nil)
        #expect(RecordLines(Array("{\"format\": 2, \"cards\": {}}".utf8)) == nil)
    }
}
