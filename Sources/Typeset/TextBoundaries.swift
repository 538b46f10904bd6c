/// The boundaries hlrender lays text out by, for checking against Unicode's conformance files
/// (`hlconformance`): the same functions and data the typesetter uses, not a copy.
extension PreparedText {
    /// Where a line may end, as UTF-8 offsets into the text: ICU's UAX #14 opportunities that
    /// fall between grapheme clusters, each hard break's after its separator (a paragraph's
    /// separator belongs to no line), and the text's end.
    package var lineBreakOpportunities: [(offset: Int, mandatory: Bool)] {
        var out: [(offset: Int, mandatory: Bool)] = []
        for (i, prepared) in paragraphs.enumerated() {
            let isLast = i + 1 == paragraphs.count
            for item in prepared.breaks where item.offset > prepared.paragraph.start {
                // Not before the separator (UAX #14 LB6), unless a hard break (VT, FF, LS) ends there.
                if item.offset == prepared.paragraph.end && !isLast && !item.mandatory { continue }
                out.append((item.offset, item.mandatory))
            }
            if !isLast { out.append((paragraphs[i + 1].paragraph.start, true)) }
        }
        return out
    }
}

extension Typesetter {
    /// The grapheme-cluster boundaries the typesetter cuts `text` into (UTF-8 offsets, the end
    /// included): what highlights, ellipses and letter spacing fall between.
    package static func graphemeBoundaries(_ text: String) -> [Int] {
        let found = clusters(of: text[...], base: 0)
        return found.map(\.start).dropFirst() + [text.utf8.count]
    }
}
