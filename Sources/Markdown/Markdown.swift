import CCmark
import Markup

/// CommonMark read by cmark, the reference parser, and written as a `MarkdownDocument`.
/// Any input is a document (CommonMark has no syntax errors: what is not markup is text);
/// raw HTML is shown as the text it is, never interpreted. Invalid UTF-8 becomes U+FFFD.
package enum Markdown {
    /// Inline elements nest at most this deep in the markup (deeper ones keep their text, not
    /// their style): well inside the markup parser's own limit.
    static let maxInlineDepth = 40
    /// Bullets by list depth (the fonts in `fonts/` have these).
    static let bullets = ["•", "–", "⁃"]
    /// A line break inside a paragraph: U+2028, after a space so that a PDF's text layer
    /// keeps the words apart (the space is the line's trailing space, drawn as nothing).
    static let lineBreak = " \u{2028}"
    /// CommonMark's ASCII punctuation: each may be backslash-escaped.
    static let asciiPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

    /// `source` as a document; a link whose address `allowsLink` refuses keeps its text
    /// without the link (a document never fails for its links).
    package static func document(_ source: String, allowsLink: @escaping (String) -> Bool = { _ in true }) -> MarkdownDocument {
        var source = source
        let root = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, CMARK_OPT_VALIDATE_UTF8) }
        }
        guard let root else { return MarkdownDocument(markup: Markup.escape(source), blocks: [MarkdownBlock(kind: .paragraph)]) }
        defer { cmark_node_free(root) }
        var writer = Writer(allowsLink: allowsLink)
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if event == CMARK_EVENT_ENTER {
                if writer.enter(node) == .skip { cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT) }
            } else {
                writer.exit(node)
            }
        }
        return writer.document
    }

    /// A node's literal text ("" when it has none).
    static func literal(_ node: OpaquePointer) -> String { cmark_node_get_literal(node).map { String(cString: $0) } ?? "" }

    /// The plain text of a node's inline content (an image's alternative text, a heading's title).
    static func plainText(_ node: OpaquePointer) -> String {
        var out = ""
        let iterator = cmark_iter_new(node)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let child = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(child) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE: out += literal(child)
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: out += " "
            default: break
            }
        }
        return out
    }

    /// The bytes of the scalars `text` turns into spaces (and of some others).
    private static let breakBytes = ByteSet([0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0xA9])

    /// Text that may hold any character, as markup of one paragraph: escaped, and the
    /// characters that would end the paragraph (line and paragraph separators) as spaces.
    static func text(_ string: String) -> String {
        let breaks: [Unicode.Scalar] = ["\n", "\r", "\u{2029}", "\u{85}", "\u{0B}", "\u{0C}"]
        // Most text has none (cmark gives a paragraph's lines as text nodes of their own): a
        // byte scan (0x85 and 0xA9 also end other scalars, which only costs the slow way).
        var source = string
        guard source.withUTF8({ breakBytes.occurs(in: $0) }) else { return Markup.escape(string) }
        return Markup.escape(String(String.UnicodeScalarView(string.unicodeScalars.map { breaks.contains($0) ? " " : $0 })))
    }
}

extension Markdown {
    /// `text` written so CommonMark reads it as that text and nothing else, wherever it lands in
    /// a document (a `{{variable}}`): every ASCII punctuation character backslash-escaped, line
    /// breaks as spaces (no new block can start), leading spaces as character references (no
    /// code block). By Unicode scalar: a combining mark after a `<` does not hide it.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var leading = true
        for c in text.unicodeScalars {
            if leading, c == " " || c == "\t" {
                out += "&#32;"
                continue
            }
            leading = false
            switch c {
            case "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\u{0C}": out += " "
            case _ where Markdown.asciiPunctuation.unicodeScalars.contains(c):
                out += "\\"
                out.unicodeScalars.append(c)
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
