/// One grapheme cluster of a paragraph with what itemization needs to know about it.
struct Cluster {
    /// UTF-8 byte range in the input.
    var start: Int
    var end: Int
    var utf16Start: Int
    var scalars: ClusterScalars

    var isWhitespace: Bool { scalars.allSatisfy(Cluster.isWhitespace) }

    /// Unicode's White_Space property (PropList.txt: 25 code points, unchanged since Unicode
    /// 6.3) without the property tables: line breaking asks it of every line's end.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
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
    // A native string's bytes in place: the fast paths below read a byte at a time, which
    // through the UTF-8 view's indices was most of this function's time.
    // (A bridged or foreign string is made native, its bytes copied once.)
    var slice = text
    return slice.withUTF8 { clusters(of: text, bytes: $0, base: base) }
}

/// `clusters(of:base:)` over `bytes`, `text`'s own UTF-8.
private func clusters(of text: Substring, bytes: UnsafeBufferPointer<UInt8>, base: Int) -> [Cluster] {
    var result: [Cluster] = []
    result.reserveCapacity(bytes.count)
    var byte = 0
    var unit = 0
    let count = bytes.count
    while byte < count {
        // An ASCII character followed by ASCII is a cluster of its own (CR LF is the one pair
        // Unicode joins): no grapheme breaking needed for most of a Latin text.
        let b = bytes[byte]
        if b < 0x80, b != 0x0D, byte + 1 == count || bytes[byte + 1] < 0x80 {
            result.append(Cluster(start: base + byte, end: base + byte + 1, utf16Start: unit, scalars: ClusterScalars(Unicode.Scalar(b))))
            byte += 1
            unit += 1
            continue
        }
        // A letter of a script long texts are mostly written in, followed by ASCII or another
        // such letter (no mark, joiner or selector after it), is a cluster of its own too.
        if let (scalar, width) = simpleLetter(bytes, at: byte) {
            let next = byte + width
            if next == count || bytes[next] < 0x80 && bytes[next] != 0x0D || simpleLetter(bytes, at: next) != nil {
                result.append(Cluster(start: base + byte, end: base + next, utf16Start: unit, scalars: ClusterScalars(scalar)))
                byte = next
                unit += 1
                continue
            }
        }
        // Elsewhere Swift's grapheme breaking, from this boundary.
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: byte)
        var after = text.index(after: index)
        // UAX #29 GB11 (ExtPict Extend* ZWJ x ExtPict) by ICU's Extended_Pictographic: Swift's
        // table lacks some (U+2701 ZWJ U+2701 is one cluster, GraphemeBreakTest says).
        while after < text.endIndex, joinsNext(text[index..<after].unicodeScalars), let next = text[after].unicodeScalars.first,
              TextBreak.isExtendedPictographic(next) {
            after = text.index(after: after)
        }
        let scalars = ClusterScalars(text[index..<after].unicodeScalars)
        let width = scalars.reduce(0) { $0 + UTF8.width($1) }
        let units = scalars.reduce(0) { $0 + UTF16.width($1) }
        result.append(Cluster(start: base + byte, end: base + byte + width, utf16Start: unit, scalars: scalars))
        byte += width
        unit += units
    }
    return result
}

/// The scalar at `index` and its UTF-8 width when it is a letter no grapheme rule joins to
/// what comes before it (a base of GB999 alone): Latin-1 letters, Greek, Cyrillic and Arabic
/// letters, kana, CJK ideographs and punctuation, full-width forms. Such a letter followed by
/// another, or by ASCII other than CR, ends a cluster (UAX #29 breaks there).
private func simpleLetter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
    guard index < bytes.count else { return nil }
    let lead = bytes[index]
    let width = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    guard lead >= 0xC2, width <= 3, bytes.count - index >= width else { return nil }
    var value = UInt32(lead) & (width == 2 ? 0x1F : 0x0F)
    for k in 1..<width { value = value << 6 | UInt32(bytes[index + k] & 0x3F) }
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

    /// One scalar: the common cluster, with no sequence to walk.
    init(_ scalar: Unicode.Scalar) { (head, tail) = (scalar, []) }

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
