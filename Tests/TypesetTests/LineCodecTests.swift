import TestSupport
import Testing
@testable import Typeset

/// Lines to bytes and back (a long text's pages spool them between measuring and drawing):
/// exactly the same lines, for every script, alignment and span the layouts below hold.
@Suite struct LineCodecTests {
    static let texts = ["ar", "en", "hi", "ja", "mixed", "ru", "zh"]

    func layouts() throws -> [Layout] {
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
        var out: [Layout] = []
        for name in Self.texts {
            let text = try Fixtures.corpusText(name)
            for alignment in [Alignment.start, .justify] {
                var style = TypesetStyle(size: 23, width: 410, alignment: alignment)
                style.letterSpacing = alignment == .justify ? 0 : 0.7
                style.hyphenate = name == "en"
                style.language = name == "en" ? "en" : ""
                out.append(try typesetter.layout(text, style: style))
            }
        }
        // Spans: a larger size and a raised run, so runs of several sizes and rises are on a line.
        let text = try Fixtures.corpusText("en")
        var style = TypesetStyle(size: 20, width: 300)
        style.runs = [StyledRange(start: 10, end: 60, shaping: SpanShaping(size: .px(31))),
                      StyledRange(start: 80, end: 90, shaping: SpanShaping(shift: .sup))]
        out.append(try typesetter.layout(text, style: style))
        return out
    }

    @Test func linesComeBackExactly() throws {
        for layout in try layouts() {
            let bytes = LineCodec.encode(layout.lines)
            #expect(try LineCodec.decode(bytes) == layout.lines)
        }
        #expect(try LineCodec.decode(LineCodec.encode([])) == [])
    }

    /// The point of the format: a long text's lines in far fewer bytes than their glyphs' 40 in
    /// memory (line text, boxes and run metrics included).
    @Test func longTextsTakeAboutTwelveBytesAGlyph() throws {
        let text = String(repeating: try Fixtures.corpusText("en") + " ", count: 40)
        for alignment in [Alignment.start, .justify] {
            let layout = try Typesetter(library: Fixtures.library, font: FontSpec())
                .layout(text, style: TypesetStyle(size: 11, width: 330, alignment: alignment))
            let glyphs = layout.lines.reduce(0) { $0 + $1.runs.reduce(0) { $0 + $1.glyphs.count } }
            let bytes = LineCodec.encode(layout.lines).count
            #expect(glyphs > 5_000)
            #expect(bytes < glyphs * 14, "\(alignment): \(bytes) bytes for \(glyphs) glyphs")
        }
    }

    /// A cut or damaged buffer is an error, never a trap or a line made up.
    @Test func shortOrDamagedBytesThrow() throws {
        let lines = try layouts()[0].lines
        let bytes = LineCodec.encode(Array(lines.prefix(3)))
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: LineCodec.Malformed.self) { try LineCodec.decode(Array(bytes[..<cut])) }
        }
        #expect(throws: LineCodec.Malformed.self) { try LineCodec.decode(bytes + [0]) }
        // Every byte flipped in turn: decoding may succeed with other values, but never traps.
        for i in stride(from: 0, to: bytes.count, by: 3) {
            var damaged = bytes
            damaged[i] ^= 0xA5
            _ = try? LineCodec.decode(damaged)
        }
    }
}
