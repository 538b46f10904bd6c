import Markdown
import Markup
import Testing

/// CommonMark (read by cmark) as paragraphs of markup and their blocks.
@Suite struct MarkdownDocumentTests {
    /// The markup's paragraphs.
    func paragraphs(_ document: MarkdownDocument) -> [String] {
        document.markup.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func headingsParagraphsAndInlineStyles() {
        let document = Markdown.document("# Title *one*\n\nSome *em*, **strong**, `code <x>` and [a link](https://e.com/?a=1&b=\"2\").\n\n###### Six\n")
        #expect(document.blocks.map(\.kind) == [.heading(level: 1, title: "Title one"), .paragraph, .heading(level: 6, title: "Six")])
        #expect(paragraphs(document) == [
            "<span size=\"200%\" weight=\"bold\">Title <i>one</i></span>",
            "Some <i>em</i>, <b>strong</b>, <tt>code &lt;x&gt;</tt> and <a href=\"https://e.com/?a=1&amp;b=&quot;2&quot;\"><u>a link</u></a>.",
            "<span size=\"90%\" weight=\"bold\">Six</span>",
        ])
        // The markup parses, and its text has one paragraph per block.
        let text = try? Markup.parse(document.markup).text
        #expect(text?.split(separator: "\n", omittingEmptySubsequences: false).count == document.blocks.count)
    }

    @Test func listsCarryTheirLabelsDepthsAndTightness() {
        let document = Markdown.document("- one\n- two\n  1. three\n  1) no\n\n5) five\n6) six\n\n   more of six\n")
        #expect(document.blocks == [
            MarkdownBlock(kind: .listItem(label: "•", labelBytes: 5), listDepth: 1, tight: true),
            MarkdownBlock(kind: .listItem(label: "•", labelBytes: 5), listDepth: 1, tight: true),
            MarkdownBlock(kind: .listItem(label: "1.", labelBytes: 4), listDepth: 2, tight: true),
            // A different delimiter starts a new list (CommonMark), numbered from its own start.
            MarkdownBlock(kind: .listItem(label: "1)", labelBytes: 4), listDepth: 2, tight: true),
            MarkdownBlock(kind: .listItem(label: "5)", labelBytes: 4), listDepth: 1, tight: false),
            MarkdownBlock(kind: .listItem(label: "6)", labelBytes: 4), listDepth: 1, tight: false),
            MarkdownBlock(kind: .listContinuation, listDepth: 1, tight: false),
        ])
        #expect(paragraphs(document)[0] == "•\u{00A0}one")
        #expect(paragraphs(document)[6] == "more of six")
    }

    @Test func codeQuotesRulesAndHTMLKeepTheirText() {
        let document = Markdown.document("> quoted *words*\n\n```\na\tb\n<tag>\n```\n\n---\n\n<div onclick=\"x\">raw</div>\n")
        #expect(document.blocks.map(\.kind) == [.paragraph, .code, .rule, .paragraph])
        #expect(document.blocks[0].quoteDepth == 1)
        #expect(paragraphs(document) == [
            "quoted <i>words</i>",
            "<tt>a    b \u{2028}&lt;tag&gt;</tt>",
            "",
            "&lt;div onclick=&quot;x&quot;&gt;raw&lt;/div&gt;",
        ])
    }

    @Test func aPictureAloneIsAFigureAndInTextItsAltText() {
        let document = Markdown.document("![A *red* square](logo.png \"t\")\n\nSee ![the chart](c.png) here.\n\n![](end.png)")
        #expect(document.blocks.map(\.kind) == [.image(source: "logo.png", alt: "A red square", line: 1), .paragraph,
                                                .image(source: "end.png", alt: "", line: 5), .paragraph])
        // A picture's paragraph is empty; one at the end is followed by an empty paragraph.
        #expect(paragraphs(document) == ["", "See <i>the chart</i> here.", "", ""])
    }

    /// CommonMark has no errors: anything is a document, and its markup always parses.
    @Test(arguments: [
        "", "\u{0}\u{1}\u{FFFF}", String(repeating: ">", count: 5000) + " deep", String(repeating: "*a ", count: 3000),
        String(repeating: "- ", count: 2000) + "x", String(repeating: "[", count: 4000) + "](u)", "a\r\nb\u{2029}c\u{85}d",
        String(repeating: "`", count: 999) + "x", "<a href=\"javascript:alert(1)\">x</a> [y](javascript:alert(1))",
    ])
    func anyInputIsADocument(source: String) throws {
        let document = Markdown.document(source)
        let marked = try Markup.parse(document.markup)
        #expect(marked.text.split(separator: "\n", omittingEmptySubsequences: false).count == max(document.blocks.count, 1))
    }

    /// A value escaped for Markdown reads back as exactly its text, one paragraph, whatever it
    /// holds (it lands in a card's `markdown` as a `{{variable}}`).
    @Test(arguments: ["# Heading", "1. item", "- item", "    code", "> quote", "[a](javascript:x)", "<b>x</b>", "`tick`",
                      "a\nb", "*em* _u_", "x\u{301}<\u{301}", "&amp; &#65;", "\\\\", "---", "===", "| a | b |", "!\u{0}[x](y)"])
    func escapedTextIsText(value: String) throws {
        let document = Markdown.document("Before " + Markdown.escape(value) + " after")
        #expect(document.blocks.map(\.kind) == [.paragraph])
        let expected = "Before " + value.replacingNewlines + " after"
        #expect(try Markup.parse(document.markup).text == expected.replacingOccurrences("\u{0}", "\u{FFFD}"))
        // At the start of the document too (a heading, a list, a code block could start there).
        let alone = Markdown.document(Markdown.escape(value))
        #expect(alone.blocks.count <= 1 && alone.blocks.allSatisfy { $0.kind == .paragraph })
    }
}

extension String {
    var replacingNewlines: String { String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\n" ? " " : $0 })) }
    func replacingOccurrences(_ a: String, _ b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}
