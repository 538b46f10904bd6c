import CCairo
import Typeset

/// Draws a text's paragraphs inside the structure elements of their roles (a tagged PDF):
/// P, H1-H6, BlockQuote, Code, and lists as L > LI > (Lbl, LBody), nested by depth. Only the
/// glyphs go inside elements: highlights, shadows and underlines stay outside, and the file's
/// filter marks them as Artifacts (`PDFArtifacts`). Every element opened is noted, in order.
///
/// Cairo 1.16 drops an element's own text once it has a child element, so an element holds
/// either text or elements: an LBody holds its text in a P, and a nested list after it.
struct StructureTags {
    let cr: OpaquePointer
    let role: TextRole
    let language: String?
    /// Draws lines (the glyphs) where the elements are open.
    let paint: ([Line]) throws -> Void
    /// Writes the links on lines: each a Link element after its text's element, a sibling (Cairo
    /// 1.16 drops an element's own text once it has a child element), so it stays in reading order.
    let links: ([Line]) throws -> Void
    /// What draws the picture standing in a paragraph (its Figure), if one does.
    let figure: (Int) -> (() throws -> Void)?
    /// Open lists, each with its last item's LI and LBody still open (a nested list goes there).
    private var lists = 0

    init(_ cr: OpaquePointer, role: TextRole, language: String?, paint: @escaping ([Line]) throws -> Void,
         links: @escaping ([Line]) throws -> Void, figure: @escaping (Int) -> (() throws -> Void)?) {
        (self.cr, self.role, self.language, self.paint, self.links) = (cr, role, language, paint, links)
        self.figure = figure
    }

    private func open(_ name: String, _ language: String? = nil) {
        Canvas.noteElement(cr, language: language)
        cairo_tag_begin(cr, name, "")
    }

    private func close(_ name: String) { cairo_tag_end(cr, name) }

    /// Draws `lines` in their elements.
    mutating func draw(_ lines: [Line]) throws {
        let (labels, depths): ([Int: Range<Int>], [Int: Int])
        if case let .paragraphs(_, l, d) = role { (labels, depths) = (l, d) } else { (labels, depths) = ([:], [:]) }
        for group in role.groups(lines) {
            guard !group.lines.allSatisfy(\.isBlank) else {
                try paint(Array(group.lines))
                // A picture stands in an empty paragraph: its Figure is a block of its own,
                // after any list before it.
                if let paragraph = group.lines.first?.paragraph, let draw = figure(paragraph) {
                    Canvas.openDocument(cr)
                    closeLists(to: 0)
                    try draw()
                }
                continue
            }
            Canvas.openDocument(cr)
            guard group.role == .li else {
                closeLists(to: 0)
                open(group.role.tagName, language)
                try paint(Array(group.lines))
                close(group.role.tagName)
                try links(Array(group.lines))
                continue
            }
            var body = Array(group.lines)
            let paragraph = body[0].paragraph
            let depth = max(1, depths[paragraph] ?? 1)
            // The label where the item starts on this page; without one the lines continue
            // the open item at that depth (a later paragraph of it, or its rest on a new page).
            // Items given without labels (a long text's "- " lines) are each an item.
            let label = labels[paragraph].flatMap { (body[0].start..<body[0].end).contains($0.lowerBound) ? $0 : nil }
            if label != nil || labels.isEmpty || lists != depth {
                closeLists(to: depth)
                if lists == depth { closeItem() }
                while lists < depth {
                    open("L")
                    lists += 1
                    if lists < depth { openItem() }  // a list nested with no item of its own above it
                }
                open("LI")
                if let label {
                    open("Lbl", language)
                    try paint(body.compactMap { $0.clipped(to: label) })
                    close("Lbl")
                    body = body.compactMap { $0.clipped(to: label.upperBound..<Int.max) }
                }
                open("LBody", language)
            }
            open("P", language)
            try paint(body)
            close("P")
            try links(body)
        }
        closeLists(to: 0)
    }

    private func openItem() {
        open("LI")
        open("LBody", language)
    }

    private func closeItem() {
        close("LBody")
        close("LI")
    }

    /// Closes lists (each with its open item) until `depth` are open.
    private mutating func closeLists(to depth: Int) {
        while lists > depth {
            closeItem()
            close("L")
            lists -= 1
        }
    }
}
