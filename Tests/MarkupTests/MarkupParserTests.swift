import Markup
import Testing

@Suite struct MarkupParserTests {
    @Test func tagsBecomeSpansOverTheirBytes() throws {
        let marked = try Markup.parse("Hi <b>bold <i>both</i></b> &amp; <span color=\"red\" size='20pt'>é</span>")
        #expect(marked.text == "Hi bold both & é")
        #expect(marked.spans.map(\.tag) == ["b", "i", "span"])
        #expect(marked.spans.map { [$0.start, $0.end] } == [[3, 12], [8, 12], [15, 17]])
        #expect(marked.spans[0].attributes.map(\.name) == ["weight"])
        #expect(marked.spans[2].attributes.map { "\($0.name)=\($0.value)" } == ["color=red", "size=20pt"])
        #expect(marked.spans[2].attributes[1].position == SourcePosition(line: 1, column: 52))
    }

    @Test func entitiesAndCommentsAndTheMarkupWrapper() throws {
        let marked = try Markup.parse("<markup>a&lt;b&gt;&#x263A;&#65;&quot;&apos;<!-- no --></markup>")
        #expect(marked.text == "a<b>☺A\"'")
        #expect(marked.spans.isEmpty)
    }

    @Test func errorsSayWhereAndWhat() {
        let cases: [(String, String)] = [
            ("<b>x</i>", "markup line 1, column 5: </i> closes <b> opened at line 1, column 1"),
            ("ab\n  <b>x", "markup line 2, column 3: <b> is never closed"),
            ("x</b>", "markup line 1, column 2: </b> closes nothing"),
            ("<blink>x</blink>", "markup line 1, column 1: unknown tag <blink> (b, i, u, s, sub, sup, small, big, tt, span, a)"),
            ("<span colour='red'>x</span>", "markup line 1, column 7: unknown attribute colour in <span>"),
            ("<b weight='bold'>x</b>", "markup line 1, column 4: unknown attribute weight in <b> (<b> takes none)"),
            ("a & b", "markup line 1, column 3: '&' starts no entity (write &amp; for an ampersand)"),
            ("a &nbsp; b", "markup line 1, column 3: '&nbsp;' is not an entity (&amp; &lt; &gt; &quot; &apos; or &#N;)"),
            ("1 < 2", "markup line 1, column 3: '<' starts no tag (write &lt; for a less-than sign)"),
            ("<span color=red>x</span>", "markup line 1, column 13: the value of color must be quoted"),
            ("<a>x</a>", "markup line 1, column 1: <a> needs href"),
            ("<span color='a' color='b'>x</span>", "markup line 1, column 17: <span> gives color twice"),
            ("<span color='red", "markup line 1, column 7: the value of color is never closed"),
            // Columns count scalars, over text copied a stretch at a time and across lines.
            ("héllo 🌍 日本 & x", "markup line 1, column 12: '&' starts no entity (write &amp; for an ampersand)"),
            ("a\nçà\né<b>\n🌍🌍 <blink>", "markup line 4, column 4: unknown tag <blink> (b, i, u, s, sub, sup, small, big, tt, span, a)"),
            ("<b>é&#xE9;</b>🌍<i x='1'>", "markup line 1, column 19: unknown attribute x in <i> (<i> takes none)"),
        ]
        for (source, message) in cases {
            #expect(throws: MarkupError.self) { try Markup.parse(source) }
            do {
                _ = try Markup.parse(source)
            } catch {
                #expect(error.description == message, "\(source)")
            }
        }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "<b>", count: Markup.maxDepth) + "x" + String(repeating: "</b>", count: Markup.maxDepth)
        #expect(try Markup.parse(deep).spans.count == Markup.maxDepth)
        let deeper = String(repeating: "<i>", count: Markup.maxDepth + 1) + "x"
        #expect(throws: MarkupError.self) { try Markup.parse(deeper) }
    }

    @Test func escapedTextReadsBackAsItself() throws {
        for value in ["</b><span color='red'>", "a & b", "\"quoted\" 'single'", "<>&;", "plain"] {
            #expect(try Markup.parse("<b>" + Markup.escape(value) + "</b>").text == value)
        }
    }
}
