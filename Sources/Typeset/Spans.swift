import Support

/// Where a span's baseline sits: on the line's, raised or lowered by a length, or as a
/// subscript or superscript (size and shift from the font's OS/2 metrics, as Pango does).
package enum BaselineShift: Hashable, Sendable {
    case none, sub, sup
    /// Up by this many px (down when negative).
    case rise(Double)
}

/// A length in px, or in em: a multiple of the font size around it (a span's `larger` is 1.2em,
/// a block's padding 0.3em).
package enum Length: Hashable, Sendable {
    case px(Double)
    case em(Double)

    package func resolved(fontSize: Double) -> Double {
        switch self {
        case let .px(v): return v
        case let .em(v): return v * fontSize
        }
    }
}

/// How a stretch of text is shaped differently from its block: every set field overrides the
/// block's. Only what changes glyphs or their advances is here: a colour change does not break
/// shaping (ligatures and kerning survive it, as in Pango).
package struct SpanShaping: Hashable, Sendable {
    /// Family, weight and slant (a size in it is ignored: `size` says).
    package var font: FontSpec?
    package var size: Length?
    package var shift = BaselineShift.none
    package var letterSpacing: Double?
    package var features: FontFeatures?
    package var language: String?

    package init(font: FontSpec? = nil, size: Length? = nil, shift: BaselineShift = .none, letterSpacing: Double? = nil,
                features: FontFeatures? = nil, language: String? = nil) {
        (self.font, self.size, self.shift, self.letterSpacing, self.features, self.language) =
            (font, size, shift, letterSpacing, features, language)
    }

    package var isPlain: Bool { self == SpanShaping() }
}

/// `shaping` over the UTF-8 bytes `start..<end` of the text.
package struct StyledRange: Hashable, Sendable {
    package var start: Int
    package var end: Int
    package var shaping: SpanShaping
    package init(start: Int, end: Int, shaping: SpanShaping) { (self.start, self.end, self.shaping) = (start, end, shaping) }
}

/// A caller's mark over the UTF-8 bytes `start..<end` (a span's paint, link or highlight, by
/// `tag`): the typesetter keeps it on the same characters through dropped marks, a cut with an
/// ellipsis and pages, and hands it back in `Layout.spans`.
package struct TaggedRange: Hashable, Sendable {
    package var start: Int
    package var end: Int
    package var tag: Int
    package init(start: Int, end: Int, tag: Int) { (self.start, self.end, self.tag) = (start, end, tag) }
}

/// Values over byte ranges that are sorted and apart: which one (if any) covers a byte, found
/// by binary search. The span styles of a text and the glyph paints of a layout both use it.
/// Inlinable, so a caller in another module gets it specialised for its value type: called
/// unspecialised, every lookup asked the runtime for the metadata of its entries (a lock and a
/// hash a glyph: a fifth of the time of a long marked-up PDF).
package struct RangeIndex<Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline var start: Int
        @usableFromInline var end: Int
        @usableFromInline var value: Value
        @usableFromInline init(start: Int, end: Int, value: Value) { (self.start, self.end, self.value) = (start, end, value) }
    }

    @usableFromInline var ranges: [Entry] = []

    package init() {}

    /// `items` in any order; they must not overlap.
    package init(_ items: [(start: Int, end: Int, value: Value)]) {
        ranges = items.sorted { $0.start < $1.start }.map { Entry(start: $0.start, end: $0.end, value: $0.value) }
    }

    package var isEmpty: Bool { ranges.isEmpty }

    /// The value of the range holding byte `offset`.
    @inlinable
    package func value(at offset: Int) -> Value? {
        let i = partitionPoint(ranges.count) { ranges[$0].end > offset }
        return i < ranges.count && ranges[i].start <= offset ? ranges[i].value : nil
    }
}

protocol ByteRange {
    var start: Int { get set }
    var end: Int { get set }
}
extension StyledRange: ByteRange {}
extension TaggedRange: ByteRange {}

extension Array where Element: ByteRange {
    /// Ranges checked against a text of `length` bytes: inside it, start before end.
    func checked(length: Int) throws -> [Element] {
        for item in self where !(0 <= item.start && item.start < item.end && item.end <= length) {
            throw TypesetError.invalidSpan(item.start, item.end, length)
        }
        return self
    }

    /// The ranges as bytes of a text cut after `kept` bytes with `appended` bytes after it: what
    /// covers the last kept byte covers the appended ones too (an ellipsis takes the style
    /// where the cut is); what starts later is gone.
    func cut(at kept: Int, appending appended: Int) -> [Element] {
        compactMap { item in
            guard item.start < kept else { return nil }
            var out = item
            out.end = item.end >= kept ? kept + appended : item.end
            return out
        }
    }

    /// Byte offsets moved by `map` (old offset -> new), dropping ranges that become empty.
    func remapped(_ map: (Int) -> Int) -> [Element] {
        compactMap { item in
            var out = item
            out.start = map(item.start)
            out.end = map(item.end)
            return out.start < out.end ? out : nil
        }
    }

    func shifted(by offset: Int) -> [Element] { remapped { $0 + offset } }

    /// `clipped(to:)` for ranges sorted and apart (styled runs, paragraph formats): only those
    /// that reach into `bytes` are visited (a long text's chunks each clip the whole list).
    func clippedSorted(to bytes: Range<Int>) -> [Element] {
        var i = partitionPoint(count) { self[$0].end > bytes.lowerBound }
        var out: [Element] = []
        while i < count, self[i].start < bytes.upperBound {
            var item = self[i]
            (item.start, item.end) = (Swift.max(item.start, bytes.lowerBound) - bytes.lowerBound, Swift.min(item.end, bytes.upperBound) - bytes.lowerBound)
            if item.start < item.end { out.append(item) }
            i += 1
        }
        return out
    }

    /// The parts of the ranges inside `bytes`, as offsets from its start.
    func clipped(to bytes: Range<Int>) -> [Element] {
        compactMap { item in
            let start = Swift.max(item.start, bytes.lowerBound), end = Swift.min(item.end, bytes.upperBound)
            guard start < end else { return nil }
            var out = item
            (out.start, out.end) = (start - bytes.lowerBound, end - bytes.lowerBound)
            return out
        }
    }
}

extension TypesetStyle {
    /// This style for a piece of its text (bytes `bytes`): its spans clipped to the piece and
    /// counted from the piece's start.
    package func restricted(to bytes: Range<Int>) -> TypesetStyle {
        var out = self
        out.runs = runs.clippedSorted(to: bytes)
        out.tags = tags.clipped(to: bytes)
        out.paragraphFormats = paragraphFormats.clippedSorted(to: bytes)
        return out
    }
}

extension MarkLimit {
    /// For text where `apply` dropped marks: each old UTF-8 offset's place in the new text.
    static func offsetMap(_ text: String) -> (Int) -> Int {
        var starts: [(old: Int, new: Int)] = []
        var run = 0, old = 0, new = 0
        for scalar in text.unicodeScalars {
            run = extendsCluster(scalar) ? run + 1 : 0
            starts.append((old, new))
            old += UTF8.width(scalar)
            if run <= marksPerBase { new += UTF8.width(scalar) }
        }
        starts.append((old, new))
        return { offset in
            let index = partitionPoint(starts.count) { starts[$0].old > offset }
            return index == 0 ? 0 : starts[index - 1].new
        }
    }
}
