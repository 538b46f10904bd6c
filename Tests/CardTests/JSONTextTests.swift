import Foundation
import Support
import Testing
import TestSupport

/// The JSON reader and writer against Python's `json` module, an independent implementation:
/// strings of every kind (plain, quotes, backslashes, control characters, accents, CJK, emoji)
/// read as Python wrote them (escaped as `\uXXXX` with surrogate pairs, and as raw UTF-8), and
/// what hlrender writes reads back in Python as the same values.
@Suite struct JSONTextTests {
    static func strings() -> [String] {
        var random = SplitMix(seed: 51)
        let pieces: [String] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{0}", "\u{1F}", "\u{7F}", "é", "ß", "漢",
                                "👩‍👩‍👧", "🎉", "\u{2028}", "مرحبا", "{}", "[", "\\u0041"]
        var made = ["", "plain words only", String(repeating: "x", count: 5000)]
        for _ in 0..<300 {
            let count = Int(random.next() % 24)
            made.append((0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        return made
    }

    @Test func readsWhatPythonWrites() throws {
        let strings = Self.strings()
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("json-text-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: input) }
        let value = JSONValue.array(strings.map(JSONValue.string))
        for (written, asciiOnly) in [(value.serialized(), "True"), (value.compact, "False"), (value.compact, "True")] {
            try Data(written.utf8).write(to: input)
            let (status, output) = try runTool("/usr/bin/python3", ["-c", """
                import json, sys
                values = json.load(open(sys.argv[1], encoding="utf-8"))
                sys.stdout.write(json.dumps({"strings": values}, ensure_ascii=\(asciiOnly)))
                """, input.path])
            #expect(status == 0)
            let read = try JSONValue.parse(Array(output.utf8))
            guard case let .array(items)? = read["strings"] else {
                Issue.record("no strings in Python's answer")
                return
            }
            #expect(items == strings.map(JSONValue.string), "ensure_ascii=\(asciiOnly)")
        }
        #expect(!value.compact.contains("\n") && value.serialized().contains("\n  "))
    }

    @Test func invalidUTF8AndBadEscapesAreRefused() {
        for bad: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], Array(#""\q""#.utf8), Array(#""\ud800""#.utf8),
                              [0x22, 0x61, 0x0A, 0x22], Array(#""open"#.utf8)] {
            #expect(throws: (any Error).self) { try JSONValue.parse(bad) }
        }
    }
}
