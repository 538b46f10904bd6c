import Markdown
import Motion
import Render
import Support
import Typeset

extension RichText {
    /// Nested spans as what each stretch of text is: between two span edges, the spans over it
    /// apply outer first, so an inner one wins key by key (as in Pango). Glyph paint (colour,
    /// lines) is tagged per stretch; a highlight or a link per span, so it stays one piece.
    func styled(block: BlockSettings, blockFont: FontSpec, size blockSize: Double) throws -> StyledText {
        var out = StyledText(text: text)
        guard !spans.isEmpty else { return out }
        var edges = Set<Int>()
        for span in spans { edges.insert(span.start); edges.insert(span.end) }
        let sorted = edges.sorted()
        var active: [Int] = []
        var next = 0
        let byStart = spans.indices.sorted { (spans[$0].start, $0) < (spans[$1].start, $1) }
        for (from, to) in zip(sorted, sorted.dropFirst()) {
            active.removeAll { spans[$0].end <= from }
            while next < byStart.count && spans[byStart[next]].start <= from {
                active.append(byStart[next])
                next += 1
            }
            active.sort()
            guard !active.isEmpty else { continue }
            let over = active.map { spans[$0] }
            let shaping = try Self.shaping(over, blockFont: blockFont, blockSize: blockSize)
            if !shaping.isPlain { out.runs.append(StyledRange(start: from, end: to, shaping: shaping)) }
            if let paint = Self.glyphPaint(over) {
                out.tags.append(TaggedRange(start: from, end: to, tag: out.paints.count))
                out.paints.append(paint)
            }
        }
        var animated = 0
        for span in spans {
            // A span's highlight and its effects are one paint: a highlight-sweep grows that
            // highlight, and the span stays one piece either way.
            let highlight = Self.highlight(span, block: block, size: blockSize)
            let effects = span.keys.contains("animation") ? span.settings.animation : []
            if !effects.isEmpty {
                animated += 1
                guard animated <= Self.maxAnimatedSpans else {
                    throw OptionError("more than \(Self.maxAnimatedSpans) spans have an animation (each is staggered frame by frame)")
                }
            }
            if highlight != nil || !effects.isEmpty {
                var paint = SpanPaint(highlight: highlight)
                paint.animation = effects
                out.tags.append(TaggedRange(start: span.start, end: span.end, tag: out.paints.count))
                out.paints.append(paint)
            }
            if span.keys.contains("link"), let link = span.settings.link {
                out.tags.append(TaggedRange(start: span.start, end: span.end, tag: out.paints.count))
                out.paints.append(SpanPaint(link: link))
            }
        }
        return out
    }

    /// The most spans of one block that may have effects: each is timed and drawn on its own
    /// every frame, so their number is bounded as other per-frame work is.
    static let maxAnimatedSpans = 256

    private static func shaping(_ over: [Span], blockFont: FontSpec, blockSize: Double) throws -> SpanShaping {
        var family: String?, weight: Int?, slant: Int?, width: Int?
        var size: Length?
        var shaping = SpanShaping()
        var letterSpacing: Length?
        for span in over {
            let s = span.settings, keys = span.keys
            if keys.contains("font") {
                let spec = try FontSpec.parse(s.font) { _ in false }
                family = spec.family ?? family
                if spec.weight != 80 { weight = spec.weight }
                if spec.slant != 0 { slant = spec.slant }
                if spec.width != 100 { width = spec.width }
                if let px = spec.size { size = .px(px) }
            }
            if keys.contains("font-family") { family = s.fontFamily }
            if keys.contains("weight"), let w = s.weight { weight = FontWeight.fontconfig(w) }
            if keys.contains("style"), let style = s.slant { slant = style.fontconfig }
            if keys.contains("stretch"), let stretch = s.stretch { width = stretch }
            if keys.contains("size"), let px = s.size { size = .px(px) }
            if keys.contains("font-scale"), let scale = s.fontScale {
                switch size {
                case let .px(px)?: size = .px(px * scale)
                case let .em(factor)?: size = .em(factor * scale)
                case nil: size = .em(scale)
                }
            }
            if keys.contains("baseline-shift"), let shift = s.baselineShift { shaping.shift = shift }
            if keys.contains("letter-spacing") { letterSpacing = s.letterSpacing }
            if keys.contains("features") { shaping.features = s.features }
            if keys.contains("lang") { shaping.language = s.lang }
        }
        if family != nil || weight != nil || slant != nil || width != nil {
            var font = blockFont
            font.size = nil
            if let family { font.family = family; font.file = nil }
            font.weight = weight ?? font.weight
            font.slant = slant ?? font.slant
            font.width = width ?? font.width
            shaping.font = font
        }
        if let size, size != .em(1) {
            let px = size.resolved(fontSize: blockSize)
            guard TypesetStyle.sizeRange.contains(px) else {
                throw OptionError("a span's size comes to \(Checked.describe(px)) px, outside \(TypesetStyle.sizeRange.lowerBound)...\(Int(TypesetStyle.sizeRange.upperBound))")
            }
            shaping.size = size
        }
        shaping.letterSpacing = letterSpacing.map { $0.resolved(fontSize: size?.resolved(fontSize: blockSize) ?? blockSize) }
        return shaping
    }

    /// Colour and lines: the innermost span that sets each wins.
    private static func glyphPaint(_ over: [Span]) -> SpanPaint? {
        var paint = SpanPaint()
        var any = false
        for span in over {
            let s = span.settings, keys = span.keys
            if keys.contains("color"), let c = s.color { paint.color = c; any = true }
            if keys.contains("underline") { paint.underline = s.underline; any = true }
            if keys.contains("underline-color") { paint.underlineColor = s.underlineColor; any = true }
            if keys.contains("strikethrough") { paint.strikethrough = s.strikethrough; any = true }
            if keys.contains("strikethrough-color") { paint.strikethroughColor = s.strikethroughColor; any = true }
        }
        return any ? paint : nil
    }

    static let highlightKeys: Set<String> = ["highlight", "highlight-style", "outline-color"]

    /// A span's own highlight: its colours and style, its padding, radius and outline width
    /// where it gives them, else the block's.
    private static func highlight(_ span: Span, block: BlockSettings, size: Double) -> HighlightPaint? {
        guard !span.keys.isDisjoint(with: highlightKeys) else { return nil }
        var settings = block
        let own = span.settings
        settings.highlight = own.highlight
        settings.highlightStyle = own.highlightStyle
        settings.outlineColor = own.outlineColor
        if span.keys.contains("padding") { settings.padding = own.padding }
        if span.keys.contains("radius") { settings.radius = own.radius }
        if span.keys.contains("outline-width") { settings.outlineWidth = own.outlineWidth }
        return settings.highlightPaint(fontSize: size)
    }
}

/// A block's text as the typesetter and the painter take it: the text, its shaping and
/// tagged ranges, and the paints the tags index.
package struct StyledText: Sendable {
    package var text: String
    package var runs: [StyledRange] = []
    package var tags: [TaggedRange] = []
    package var paints: [SpanPaint] = []
    /// From Markdown: the document's blocks, one per paragraph of `text`.
    package var markdown: MarkdownDocument?
}

extension BlockSettings {
    /// The block's text and spans: plain text, markup or a spans list (one of them), read with
    /// `read` (a file path and its key's JSON path) and styled at the block's font and size.
    /// Errors name the key under `path` and, in markup, the line and column.
    package func styledText(font: FontSpec, size: Double, path: String = "",
                           read: (String, String) throws -> String = { _, key in throw CardError(key, "is a file: read it first") }) throws -> StyledText {
        let given = [("text", text != nil), ("text-file", textFile != nil), ("markup", markup != nil),
                     ("markup-file", markupFile != nil), ("markdown", markdown != nil), ("markdown-file", markdownFile != nil),
                     ("spans", spans != nil)].filter(\.1).map(\.0)
        guard given.count == 1 else {
            throw CardError(Card.join(path, given.last ?? "text"), given.isEmpty ? "is missing: give text, text-file, markup, markup-file, markdown, markdown-file or spans"
                                                                            : "give one of \(given.joined(separator: ", ")), not several")
        }
        let key = given[0], keyPath = Card.join(path, key)
        do {
            let rich: RichText
            switch key {
            case "spans": rich = RichText(spans: spans!)
            case "markup", "markup-file": rich = try RichText(markup: try markup ?? read(markupFile!, keyPath), linkSchemes: linkSchemes)
            case "markdown", "markdown-file":
                let schemes = linkSchemes
                let document = Markdown.document(try markdown ?? read(markdownFile!, keyPath)) { (try? LinkTarget($0, schemes: schemes)) != nil }
                var styled = try RichText(markup: document.markup, linkSchemes: linkSchemes).styled(block: self, blockFont: font, size: size)
                styled.markdown = document
                return styled
            default: rich = RichText(plain: try text ?? read(textFile!, keyPath))
            }
            return try rich.styled(block: self, blockFont: font, size: size)
        } catch let error as OptionError {
            throw CardError(keyPath, error.message)
        }
    }
}
