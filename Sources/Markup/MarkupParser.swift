/// Pango markup (the Cairo/Pango world's rich text) read into plain text and spans. Only the
/// syntax lives here: which tags exist, which attributes a tag takes, entities, nesting. What a
/// value means (a size, a colour) is the caller's: it gets each attribute with its place in
/// the source, so its refusal can say where.
package enum Markup {
    /// Tags deeper than this are refused (a hostile text could otherwise nest without end).
    package static let maxDepth = 100

    /// Attribute names a `<span>` takes: Pango's (with their aliases) and hlrender's own.
    package static let spanAttributes: Set<String> = [
        "font", "font_desc", "font_family", "face", "size", "font_size", "weight", "font_weight", "style", "font_style", "stretch", "font_stretch",
        "color", "foreground", "fgcolor", "background", "bgcolor", "underline", "underline_color",
        "strikethrough", "strikethrough_color", "letter_spacing", "font_features", "lang", "rise", "baseline_shift",
        "font_scale", "highlight", "outline_color", "href",
    ]

    /// The short tags as the span attributes they stand for (`<big>` is `<span size="larger">`).
    static let shortTags: [String: [(String, String)]] = [
        "b": [("weight", "bold")], "i": [("style", "italic")], "u": [("underline", "single")],
        "s": [("strikethrough", "true")], "sub": [("baseline_shift", "subscript")],
        "sup": [("baseline_shift", "superscript")], "small": [("size", "smaller")], "big": [("size", "larger")],
        "tt": [("font_family", "monospace")],
    ]

    /// The bytes `escape` writes as entities.
    private static let escaped = ByteSet([0x26, 0x3C, 0x3E, 0x22, 0x27])

    /// Reads `source`; the error names the line and column (from 1, in characters) where it is.
    package static func parse(_ source: String) throws(MarkupError) -> MarkedText {
        var reader = MarkupReader(source)
        return try reader.read()
    }

    /// `text` with the characters markup gives meaning to written as entities: a value put into
    /// markup (a `{{variable}}`) then never opens or closes a span.
    /// By UTF-8 byte, which is by scalar here: the five are ASCII, and no byte of a longer
    /// scalar's encoding is ASCII (a combining mark after a quote does not hide it).
    package static func escape(_ text: String) -> String {
        // Over the contiguous bytes, sixteen at a time (a byte at a time through the UTF-8
        // view's iterator was a third of a 2,000-page Markdown text's single-threaded start).
        var source = text
        guard source.withUTF8({ escaped.occurs(in: $0) }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for b in text.utf8 {
            switch b {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x22: out += Array("&quot;".utf8)
            case 0x27: out += Array("&apos;".utf8)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A place in the markup source.
package struct SourcePosition: Equatable, Sendable, CustomStringConvertible {
    package var line: Int
    package var column: Int
    package init(line: Int, column: Int) { (self.line, self.column) = (line, column) }
    package var description: String { "line \(line), column \(column)" }
}

package struct MarkupError: Error, Equatable, CustomStringConvertible {
    package var position: SourcePosition
    package var message: String
    package var description: String { "markup \(position): \(message)" }
}

/// One attribute of a span, where it was written.
package struct MarkupAttribute: Equatable, Sendable {
    package var name: String
    package var value: String
    package var position: SourcePosition
}

/// A tag's stretch of the plain text (UTF-8 bytes, `end` exclusive) and its attributes; spans
/// are listed in the order their tags opened, so an inner span comes after its outer one.
package struct MarkupSpan: Equatable, Sendable {
    package var start: Int
    package var end: Int
    package var tag: String
    package var attributes: [MarkupAttribute]
    package var position: SourcePosition
}

package struct MarkedText: Equatable, Sendable {
    package var text: String
    package var spans: [MarkupSpan]
}
