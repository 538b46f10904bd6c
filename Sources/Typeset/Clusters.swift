/// One grapheme cluster of a paragraph with what itemization needs to know about it.
struct Cluster {
    /// UTF-8 byte range in the input.
    var start: Int
    var end: Int
    var utf16Start: Int
    var scalars: ClusterScalars

    var isWhitespace: Bool {
        // ASCII without the property tables (tab to carriage return, and space).
        if scalars.count == 1, scalars[0].isASCII { return scalars[0].value == 0x20 || (0x09...0x0D).contains(scalars[0].value) }
        return scalars.allSatisfy(\.properties.isWhitespace)
    }

    /// Whitespace and punctuation: they stay in the font of the text around them.
    var isNeutral: Bool { scalars.allSatisfy(Cluster.isNeutral) }

    static func isNeutral(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .otherPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .dashPunctuation, .connectorPunctuation,
             .control:
            return true
        default:
            return scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    /// Printable ASCII scalars that are neutral, looked up without Unicode property tables.
    static let asciiNeutral: [Bool] = (0..<128).map { isNeutral(Unicode.Scalar(UInt8($0))) }

    /// The cluster's one printable ASCII scalar, if that is all it is (most clusters of most
    /// texts): it needs no emoji or invisibility checks.
    var printableASCII: Unicode.Scalar? {
        guard scalars.count == 1, (0x20..<0x7F).contains(scalars[0].value) else { return nil }
        return scalars[0]
    }

    /// Scalars a font must cover to show the cluster; joiners and selectors are invisible.
    var visibleScalars: [Unicode.Scalar] {
        scalars.filter { !$0.properties.isDefaultIgnorableCodePoint && !$0.properties.isVariationSelector }
    }

    /// Emoji presentation (UTS #51): a VS16, a keycap, a flag, a modifier or ZWJ sequence, or
    /// a character that is emoji-style by default; VS15 asks for text style.
    var wantsEmojiPresentation: Bool {
        if scalars.contains("\u{FE0E}") { return false }
        if scalars.contains(where: { $0 == "\u{FE0F}" || $0 == "\u{20E3}" }) { return true }
        guard let first = scalars.first else { return false }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return true }
        if first.properties.isEmojiPresentation { return true }
        let hasEmoji = scalars.contains { $0.properties.isEmoji && $0.value > 0xFF }
        return hasEmoji && scalars.contains { $0 == "\u{200D}" || $0.properties.isEmojiModifier }
    }
}

/// The grapheme clusters of `text` (one paragraph), with absolute byte offsets from `base`.
func clusters(of text: Substring, base: Int) -> [Cluster] {
    var result: [Cluster] = []
    result.reserveCapacity(text.utf8.count)
    var byte = base
    var unit = 0
    let utf8 = text.utf8
    var index = utf8.startIndex
    while index < utf8.endIndex {
        // An ASCII character followed by ASCII is a cluster of its own (CR LF is the one pair
        // Unicode joins): no grapheme breaking needed for most of a Latin text.
        let b = utf8[index]
        let next = utf8.index(after: index)
        if b < 0x80, b != 0x0D, next == utf8.endIndex || utf8[next] < 0x80 {
            result.append(Cluster(start: byte, end: byte + 1, utf16Start: unit, scalars: ClusterScalars(CollectionOfOne(Unicode.Scalar(b)))))
            byte += 1
            unit += 1
            index = next
            continue
        }
        // A letter of a script long texts are mostly written in, followed by ASCII or another
        // such letter (no mark, joiner or selector after it), is a cluster of its own too.
        if let (scalar, width) = simpleLetter(utf8, at: index),
           utf8.index(index, offsetBy: width) == utf8.endIndex
            || utf8[utf8.index(index, offsetBy: width)] < 0x80 && utf8[utf8.index(index, offsetBy: width)] != 0x0D
            || simpleLetter(utf8, at: utf8.index(index, offsetBy: width)) != nil {
            result.append(Cluster(start: byte, end: byte + width, utf16Start: unit, scalars: ClusterScalars(CollectionOfOne(scalar))))
            byte += width
            unit += 1
            index = utf8.index(index, offsetBy: width)
            continue
        }
        // Elsewhere Swift's grapheme breaking, from this boundary.
        var after = text.index(after: index)
        // UAX #29 GB11 (ExtPict Extend* ZWJ x ExtPict) by ICU's Extended_Pictographic: Swift's
        // table lacks some (U+2701 ZWJ U+2701 is one cluster, GraphemeBreakTest says).
        while after < text.endIndex, joinsNext(text[index..<after].unicodeScalars), let next = text[after].unicodeScalars.first,
              TextBreak.isExtendedPictographic(next) {
            after = text.index(after: after)
        }
        let scalars = ClusterScalars(text[index..<after].unicodeScalars)
        let bytes = scalars.reduce(0) { $0 + UTF8.width($1) }
        let units = scalars.reduce(0) { $0 + UTF16.width($1) }
        result.append(Cluster(start: byte, end: byte + bytes, utf16Start: unit, scalars: scalars))
        byte += bytes
        unit += units
        index = after
    }
    return result
}

/// The scalar at `index` and its UTF-8 width when it is a letter no grapheme rule joins to
/// what comes before it (a base of GB999 alone): Latin-1 letters, Greek, Cyrillic and Arabic
/// letters, kana, CJK ideographs and punctuation, full-width forms. Such a letter followed by
/// another, or by ASCII other than CR, ends a cluster (UAX #29 breaks there).
private func simpleLetter(_ utf8: Substring.UTF8View, at index: Substring.UTF8View.Index) -> (Unicode.Scalar, Int)? {
    guard index < utf8.endIndex else { return nil }
    let lead = utf8[index]
    let width = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    guard lead >= 0xC2, width <= 3, utf8.distance(from: index, to: utf8.endIndex) >= width else { return nil }
    var value = UInt32(lead) & (width == 2 ? 0x1F : 0x0F)
    var at = utf8.index(after: index)
    for _ in 1..<width {
        value = value << 6 | UInt32(utf8[at] & 0x3F)
        at = utf8.index(after: at)
    }
    let simple = (0xC0...0xFF).contains(value) && value != 0xD7 && value != 0xF7 || (0x0386...0x03CE).contains(value)
        || (0x0400...0x0482).contains(value) || (0x0621...0x064A).contains(value) || (0x3001...0x3002).contains(value)
        || (0x3041...0x3096).contains(value) || (0x30A1...0x30FA).contains(value) || (0x4E00...0x9FFF).contains(value)
        || (0xFF01...0xFF5E).contains(value)
    guard simple, let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, width)
}

/// Whether a cluster ends in GB11's "ExtPict Extend* ZWJ" (checked only when it ends in a ZWJ).
private func joinsNext(_ scalars: Substring.UnicodeScalarView) -> Bool {
    guard scalars.last == "\u{200D}", let first = scalars.first, TextBreak.isExtendedPictographic(first) else { return false }
    return scalars.dropFirst().dropLast().allSatisfy { $0.properties.isGraphemeExtend || $0.properties.isEmojiModifier }
}

/// A cluster's scalars: the first held inline, the rest (most clusters have none) in an array,
/// so the common one-scalar cluster costs no allocation.
struct ClusterScalars: RandomAccessCollection, Equatable {
    private let head: Unicode.Scalar
    private let tail: [Unicode.Scalar]

    init(_ scalars: some Sequence<Unicode.Scalar>) {
        var iterator = scalars.makeIterator()
        // A grapheme cluster has at least one scalar.
        guard let first = iterator.next() else { preconditionFailure("an empty cluster") }
        head = first
        var tail: [Unicode.Scalar] = []
        while let scalar = iterator.next() { tail.append(scalar) }
        self.tail = tail
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 1 + tail.count }
    subscript(index: Int) -> Unicode.Scalar { index == 0 ? head : tail[index - 1] }
}
