/// A CommonMark document as hlrender sets it: Pango markup with one paragraph (separated by
/// line feeds) per block of the document, and what each of those paragraphs is. Emphasis,
/// strong emphasis, code spans, links and heading sizes are markup spans; the block structure
/// (headings, list items and their labels, quotes, code, rules, pictures) is in `blocks`, which
/// the page layout turns into insets and spacing and a tagged PDF into its structure elements.
package struct MarkdownDocument: Sendable, Equatable {
    /// The markup: `blocks.count` paragraphs, separated by "\n" (a code block's or a hard
    /// break's lines by U+2028, which breaks a line inside a paragraph).
    package var markup: String
    /// One per paragraph of `markup`, in order.
    package var blocks: [MarkdownBlock]
}

/// What one paragraph of a `MarkdownDocument` is.
package struct MarkdownBlock: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Running text.
        case paragraph
        /// A heading of level 1 to 6, with its text for the document outline.
        case heading(level: Int, title: String)
        /// The first paragraph of a list item; the paragraph starts with `label` and a no-break
        /// space (`labelBytes` UTF-8 bytes in all).
        case listItem(label: String, labelBytes: Int)
        /// A later paragraph of a list item (no label).
        case listContinuation
        /// A code block (its lines in the mono font).
        case code
        /// A thematic break: an empty paragraph the page draws a rule across.
        case rule
        /// A picture alone in its paragraph: the paragraph is empty and the page draws the
        /// picture there; `alt` is its alternative text (empty: none given), `line` where it
        /// is in the source (from 1).
        case image(source: String, alt: String, line: Int)
    }

    package var kind: Kind
    /// Lists around the block (1: a top-level list's item).
    package var listDepth = 0
    /// Block quotes around the block.
    package var quoteDepth = 0
    /// In a tight list (items without blank lines between them): no space between items.
    package var tight = false

    package init(kind: Kind, listDepth: Int = 0, quoteDepth: Int = 0, tight: Bool = false) {
        self.kind = kind
        self.listDepth = listDepth
        self.quoteDepth = quoteDepth
        self.tight = tight
    }
}
