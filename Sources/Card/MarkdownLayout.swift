import Markdown
import Render
import Typeset

/// How a Markdown document's blocks are set and tagged, paragraph by paragraph of its text:
/// insets for lists, quotes and code, list labels hanging into the inset, space above each
/// block by its kind, and the structure element each paragraph is in a tagged PDF.
package struct MarkdownLayout: Sendable {
    /// A heading's level and its text (a bookmark's title).
    package struct Heading: Sendable {
        package var level: Int
        package var title: String
    }

    /// Insets, hanging labels and space above, in ems of the text's size.
    package let formats: [ParagraphFormat]
    /// The structure element of each paragraph that is not a P (by paragraph number).
    package let roles: [Int: StructureRole]
    /// A list item's label (its bytes in the text), tagged Lbl apart from its LBody.
    package let labels: [Int: Range<Int>]
    /// How deep each list item's list is nested (1: a top-level list).
    package let depths: [Int: Int]
    package let headings: [Int: Heading]
    /// Thematic breaks: empty paragraphs a rule is drawn across.
    package let rules: Set<Int>
    /// A picture alone in its paragraph: where it comes from, its alternative text (empty:
    /// none given) and its line in the source.
    package struct Figure: Sendable, Equatable {
        package var source: String
        package var alt: String
        package var line: Int
    }

    /// The pictures, by paragraph (an empty paragraph as tall as the picture).
    package let figures: [Int: Figure]
    /// Paragraphs in block quotes (how many deep), and code blocks: a bar beside each level of
    /// quote, a tint behind code.
    package let quotes: [Int: Int]
    package let code: Set<Int>

    /// Ems of inset per list and per block quote around a block, and for code.
    package static let listInset = 1.75, quoteInset = 1.25, codeInset = 1.0
    /// Lists nest at most this deep in the structure tree (a hostile document's 2,000 nested
    /// lists would open 6,000 elements in one another); deeper items join the deepest list.
    static let maxListDepth = 16

    /// The layout of `document`, whose markup reads as `text`; `labelWidth` measures a list
    /// label (with the no-break space after it) in ems, `figureHeight` how tall a picture is
    /// drawn (ems; without pictures to draw, none is called for).
    package init(_ document: MarkdownDocument, text: String, labelWidth: (String) throws -> Double,
                 figureHeight: (Figure) throws -> Double = { _ in 0 }) rethrows {
        // Each paragraph's first byte (the markup's text has one paragraph per block).
        var starts = [0]
        // Over the contiguous bytes: the UTF-8 view's enumerated iterator took a fifth of a
        // 2,000-page Markdown text's single-threaded start.
        var source = text
        source.withUTF8 { bytes in
            for offset in bytes.indices where bytes[offset] == 0x0A { starts.append(offset + 1) }
        }
        let ends = starts.dropFirst().map { $0 - 1 } + [text.utf8.count]
        var formats: [ParagraphFormat] = [], roles: [Int: StructureRole] = [:], labels: [Int: Range<Int>] = [:]
        var headings: [Int: Heading] = [:], rules = Set<Int>(), depths: [Int: Int] = [:], quotes: [Int: Int] = [:], code = Set<Int>()
        var figures: [Int: Figure] = [:]
        var widths: [String: Double] = [:]
        for (k, block) in document.blocks.enumerated() where k < starts.count {
            var inset = MarkdownLayout.listInset * Double(block.listDepth) + MarkdownLayout.quoteInset * Double(block.quoteDepth)
            var firstLine = 0.0
            var above = k == 0 ? 0 : 0.6
            var height = 0.0
            var keep = false
            switch block.kind {
            case let .heading(level, title):
                above = k == 0 ? 0 : [1.2, 1.0, 0.9, 0.8, 0.8, 0.8][level - 1]
                roles[k] = .heading(level)
                keep = true
                headings[k] = Heading(level: level, title: title.trimmed)
            case let .listItem(label, bytes):
                if widths[label] == nil { widths[label] = try labelWidth(label + "\u{00A0}") }
                firstLine = -min(widths[label]!, inset)
                if block.tight, k > 0 { above = 0.2 }
                roles[k] = .li
                depths[k] = min(block.listDepth, MarkdownLayout.maxListDepth)
                labels[k] = starts[k]..<min(starts[k] + bytes, ends[k])
            case .listContinuation:
                above = block.tight ? 0.2 : 0.4
                roles[k] = .li
                depths[k] = min(block.listDepth, MarkdownLayout.maxListDepth)
            case .code:
                inset += MarkdownLayout.codeInset
                roles[k] = .code
                code.insert(k)
            case .rule:
                rules.insert(k)
            case let .image(source, alt, line):
                let figure = Figure(source: source, alt: alt, line: line)
                figures[k] = figure
                height = try figureHeight(figure)
            case .paragraph:
                if block.quoteDepth > 0 { roles[k] = .blockQuote }
            }
            if block.quoteDepth > 0 { quotes[k] = block.quoteDepth }
            inset = min(inset, 40)
            // Up to and with the paragraph's line feed; an empty last paragraph has no bytes to
            // hold a format (it shows nothing).
            let end = min(ends[k] + 1, text.utf8.count)
            if starts[k] < end {
                var format = ParagraphFormat(start: starts[k], end: end, inset: inset, firstLine: max(firstLine, -inset),
                                             spaceBefore: above, minHeight: height)
                format.keepWithNext = keep
                formats.append(format)
            }
        }
        (self.formats, self.roles, self.labels, self.depths, self.headings) = (formats, roles, labels, depths, headings)
        (self.rules, self.quotes, self.code, self.figures) = (rules, quotes, code, figures)
    }
}
