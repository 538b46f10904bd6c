import CCmark
import Markup

extension Markdown {
    /// Turns cmark's enter and exit events into paragraphs of markup and their blocks.
    struct Writer {
        enum Next { case descend, skip }

        private struct List {
            var ordered: Bool
            var next: Int
            var parenthesis: Bool
            var tight: Bool
        }

        /// Whether a link's address may be a link.
        let allowsLink: (String) -> Bool
        /// The paragraphs so far, separated by line feeds (written in place: a paragraph at a
        /// time, then joined, the 8 MB of a 2,000-page text were copied twice more).
        private var markup = ""
        private var blocks: [MarkdownBlock] = []
        /// Whether a paragraph (a paragraph or a heading) is being written, and what closes its spans.
        private var writing = false
        private var closing = ""
        private var lists: [List] = []
        /// Per open item: whether it still waits for its first paragraph (which takes the label).
        private var freshItems: [Bool] = []
        private var quoteDepth = 0
        /// Open inline tags, and those not written for being too deep.
        private var inlineDepth = 0

        init(allowsLink: @escaping (String) -> Bool) { self.allowsLink = allowsLink }

        var document: MarkdownDocument {
            // A picture's empty paragraph keeps its line feed (its format needs a byte to hold
            // it): a picture at the end gets an empty paragraph after it.
            guard case .image = blocks.last?.kind else { return MarkdownDocument(markup: markup, blocks: blocks) }
            return MarkdownDocument(markup: markup + "\n", blocks: blocks + [MarkdownBlock(kind: .paragraph)])
        }

        mutating func enter(_ node: OpaquePointer) -> Next {
            switch cmark_node_get_type(node) {
            case CMARK_NODE_BLOCK_QUOTE: quoteDepth += 1
            case CMARK_NODE_LIST:
                let start = Int(cmark_node_get_list_start(node))
                lists.append(List(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST, next: start,
                                  parenthesis: cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM,
                                  tight: cmark_node_get_list_tight(node) != 0))
            case CMARK_NODE_ITEM: freshItems.append(true)
            case CMARK_NODE_PARAGRAPH:
                if let child = cmark_node_first_child(node), cmark_node_get_type(child) == CMARK_NODE_IMAGE, cmark_node_next(child) == nil {
                    let source = cmark_node_get_url(child).map { String(cString: $0) } ?? ""
                    add("", .image(source: source, alt: Markdown.plainText(child), line: Int(cmark_node_get_start_line(node))))
                    return .skip
                }
                begin(.paragraph)
            case CMARK_NODE_HEADING:
                let level = min(max(Int(cmark_node_get_heading_level(node)), 1), 6)
                begin(.heading(level: level, title: Markdown.plainText(node)))
                let size = [200, 160, 130, 115, 100, 90][level - 1]
                write("<span size=\"\(size)%\" weight=\"bold\">")
                closing = "</span>"
            case CMARK_NODE_CODE_BLOCK, CMARK_NODE_HTML_BLOCK:
                // Lines kept (`lineBreak`), tabs as four spaces.
                var lines = Markdown.literal(node).split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "    ").split(separator: "\n", omittingEmptySubsequences: false)
                if lines.last == "" { lines.removeLast() }
                let body = lines.map { Markdown.text(String($0)) }.joined(separator: Markdown.lineBreak)
                let code = cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK
                begin(code ? .code : .paragraph)
                write(code ? "<tt>\(body)</tt>" : body)
                end()
            case CMARK_NODE_THEMATIC_BREAK: add("", .rule)
            case CMARK_NODE_TEXT, CMARK_NODE_HTML_INLINE: write(Markdown.text(Markdown.literal(node)))
            case CMARK_NODE_SOFTBREAK: write(" ")
            case CMARK_NODE_LINEBREAK: write(Markdown.lineBreak)
            case CMARK_NODE_CODE: open("<tt>"); write(Markdown.text(Markdown.literal(node))); close("</tt>")
            case CMARK_NODE_EMPH: open("<i>")
            case CMARK_NODE_STRONG: open("<b>")
            case CMARK_NODE_LINK:
                // Underlined: a link shows as one in any colour.
                open(link(node).map { "<a href=\"\(Markup.escape($0))\"><u>" } ?? "<span>")
            case CMARK_NODE_IMAGE:
                // A picture inside running text: its alternative text, in italics.
                open("<i>")
            default: break
            }
            return .descend
        }

        mutating func exit(_ node: OpaquePointer) {
            switch cmark_node_get_type(node) {
            case CMARK_NODE_BLOCK_QUOTE: quoteDepth -= 1
            case CMARK_NODE_LIST: lists.removeLast()
            case CMARK_NODE_ITEM:
                // An empty item still shows its label.
                if freshItems.last == true { begin(.paragraph); end() }
                freshItems.removeLast()
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING: end()
            case CMARK_NODE_EMPH: close("</i>")
            case CMARK_NODE_STRONG: close("</b>")
            case CMARK_NODE_LINK: close(link(node) == nil ? "</span>" : "</u></a>")
            case CMARK_NODE_IMAGE: close("</i>")
            default: break
            }
        }

        /// A link node's address, when it has one it may link to.
        private func link(_ node: OpaquePointer) -> String? {
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            return url.isEmpty || !allowsLink(url) ? nil : url
        }

        /// Starts a paragraph of `kind`; the first paragraph of a list item becomes the item's
        /// (with its label), a later one continues it.
        private mutating func begin(_ kind: MarkdownBlock.Kind) {
            end()
            var kind = kind
            var text = ""
            let takesLabel = { () -> Bool in
                switch kind { case .rule, .image: false; default: true }
            }()
            if takesLabel, freshItems.last == true, let list = lists.last {
                freshItems[freshItems.count - 1] = false
                let label = list.ordered ? "\(list.next)\(list.parenthesis ? ")" : ".")"
                    : Markdown.bullets[(lists.count - 1) % Markdown.bullets.count]
                lists[lists.count - 1].next += 1
                if case .paragraph = kind { kind = .listItem(label: label, labelBytes: label.utf8.count + 2) }
                text = Markup.escape(label) + "\u{00A0}"
            } else if !freshItems.isEmpty, case .paragraph = kind {
                kind = .listContinuation
            } else if freshItems.last == true {
                // A picture or a rule opening an item: the item shows no label (a label alone
                // after it would read as an empty item).
                freshItems[freshItems.count - 1] = false
            }
            if !blocks.isEmpty { markup += "\n" }
            markup += text
            writing = true
            closing = ""
            inlineDepth = 0
            blocks.append(MarkdownBlock(kind: kind, listDepth: lists.count, quoteDepth: quoteDepth, tight: lists.last?.tight ?? false))
        }

        private mutating func end() {
            guard writing else { return }
            markup += closing
            writing = false
        }

        /// `text` into the paragraph being written (none: dropped).
        private mutating func write(_ text: String) {
            if writing { markup += text }
        }

        /// A paragraph with nothing to lay out but its block.
        private mutating func add(_ text: String, _ kind: MarkdownBlock.Kind) {
            begin(kind)
            write(text)
            end()
        }

        private mutating func open(_ tag: String) {
            inlineDepth += 1
            if inlineDepth <= Markdown.maxInlineDepth { write(tag) }
        }

        private mutating func close(_ tag: String) {
            if inlineDepth <= Markdown.maxInlineDepth { write(tag) }
            inlineDepth -= 1
        }
    }
}
