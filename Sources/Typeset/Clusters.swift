/// One grapheme cluster of a paragraph with what itemization needs to know about it.
struct Cluster {
    /// UTF-8 byte range in the input.
    var start: Int
    var end: Int
    var utf16Start: Int
    var scalars: [Unicode.Scalar]

    var isWhitespace: Bool { scalars.allSatisfy(\.properties.isWhitespace) }

    /// Whitespace and punctuation: they stay in the font of the text around them.
    var isNeutral: Bool {
        scalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .otherPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .dashPunctuation, .connectorPunctuation,
                 .control:
                return true
            default:
                return scalar.properties.isDefaultIgnorableCodePoint
            }
        }
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
    var byte = base
    var unit = 0
    for character in text {
        let scalars = Array(character.unicodeScalars)
        let bytes = scalars.reduce(0) { $0 + UTF8.width($1) }
        let units = scalars.reduce(0) { $0 + UTF16.width($1) }
        result.append(Cluster(start: byte, end: byte + bytes, utf16Start: unit, scalars: scalars))
        byte += bytes
        unit += units
    }
    return result
}
