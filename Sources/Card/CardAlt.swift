import Render
import Support

extension BuiltCard {
    /// The card's description: its visible text in reading order (see `visibleText`).
    package var alt: String {
        if case let .string(text)? = dump["alt"] { return text }
        return ""
    }
}

extension ImageDescription {
    /// A card's text as a screen reader should get it: each block in the card's order, the
    /// lines it shows (restricted lines never: the dump holds only the shown ones), a picture's
    /// `alt`; blocks apart by a line break. At most `ImageDescription.maxCharacters`.
    static func visibleText(of blocks: [JSONValue]) -> String {
        var parts: [String] = []
        for block in blocks {
            var lines: [JSONValue] = []
            if case let .array(own)? = block["lines"] { lines = own }
            if case let .array(steps)? = block["steps"] {
                for step in steps { if case let .array(own)? = step["lines"] { lines += own } }
            }
            let text = lines.compactMap { line -> String? in
                if case let .string(text)? = line["text"] { return text.trimmed }
                return nil
            }.filter { !$0.isEmpty }.joined(separator: " ")
            if !text.isEmpty { parts.append(text) }
            if case let .string(alt)? = block["alt"], !alt.trimmed.isEmpty { parts.append(alt.trimmed) }
        }
        return bounded(parts.joined(separator: "\n"))
    }
}
