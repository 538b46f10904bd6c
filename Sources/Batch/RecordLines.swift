import Support

/// A golden suite's record of inputs read a card a line, as `GoldenInputs.save` writes it:
///
///     {
///       "format": 2,
///       "fonts": [ ... ],
///       "cards": {
///         "NAME": {"key": ..., "status": ..., "golden": {...}, "files": [...]},
///         ...
///       }
///     }
///
/// Each card's line keeps its bytes, so that a run which changed a tenth of a 10,000-card suite
/// writes the other entries back as they were instead of spelling each again. Any other
/// layout (a record edited or merged by hand) is left to the general parser.
package struct RecordLines: Sendable {
    /// One card's entry: its name, its value, and its line from the name's quote to the end of
    /// the value (no indentation, no comma).
    package struct Card: Sendable {
        /// The card's output name, decoded.
        package let name: String
        /// Its entry (key, status, golden, files), parsed.
        package let value: JSONValue
        /// The bytes it was read from.
        package let line: ArraySlice<UInt8>
    }

    /// The record without its cards: format and fonts.
    package let head: JSONValue
    /// The cards in the record's order.
    package let cards: [Card]
    /// The names come in byte order (as `save` writes them).
    package let sorted: Bool

    private static let opening = Array("{\n  \"format\": 2,".utf8)
    private static let cardsLine = Array(",\n  \"cards\": {".utf8)
    private static let quote = UInt8(ascii: "\"")

    /// Nil unless `bytes` are laid out as `save` writes them, every card line whole.
    package init?(_ bytes: [UInt8]) {
        guard bytes.starts(with: Self.opening), let start = Self.find(Self.cardsLine, in: bytes),
              let head = try? JSONValue.parse(Array(bytes[..<start]) + [UInt8(ascii: "}")]) else { return nil }
        var cards: [Card] = []
        var sorted = true
        var closed = 0
        for raw in bytes[(start + Self.cardsLine.count)...].split(separator: 10) {
            var line = raw.drop { $0 == 32 }
            if line.last == UInt8(ascii: ",") { line = line.dropLast() }
            // The cards' closing brace, then the record's, and nothing after them.
            if line.elementsEqual([UInt8(ascii: "}")]) {
                closed += 1
                continue
            }
            guard closed == 0, let card = Self.card(line) else { return nil }
            if let last = cards.last, !Self.precedes(last.name, card.name) { sorted = false }
            cards.append(card)
        }
        guard closed == 2 else { return nil }
        (self.head, self.cards, self.sorted) = (head, cards, sorted)
    }

    /// One line `"NAME": {...}`: the name (decoded) and the value (parsed).
    private static func card(_ line: ArraySlice<UInt8>) -> Card? {
        guard line.first == quote else { return nil }
        // The name's closing quote: the first one not escaped by a backslash.
        var at = line.startIndex + 1
        var escaped = false
        while at < line.endIndex {
            let byte = line[at]
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == quote { break }
            at += 1
        }
        guard at < line.endIndex, case let .string(name)? = try? JSONValue.parse(Array(line[...at])) else { return nil }
        let rest = line[(at + 1)...]
        guard rest.starts(with: [UInt8(ascii: ":"), 32]), let value = try? JSONValue.parse(Array(rest.dropFirst(2))),
              case .object = value else { return nil }
        return Card(name: name, value: value, line: line)
    }

    /// Where `needle` first occurs in `bytes`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var at = 0
        while let hit = bytes[at...].firstIndex(of: first), hit + needle.count <= bytes.count {
            if bytes[hit..<(hit + needle.count)].elementsEqual(needle) { return hit }
            at = hit + 1
        }
        return nil
    }

    /// Names in the order of their UTF-8 bytes (the code points' order): the record's order.
    package static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
