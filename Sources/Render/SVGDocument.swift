import Support

/// What hlrender changes in the SVG Cairo writes: an accessible name (Cairo 1.16's SVG surface
/// has no way to set one) and ids that depend on the document alone.
enum SVGDocument {
    /// Cairo's SVG, renumbered and named: what a canvas writes.
    static func finished(_ svg: [UInt8], title: String) -> [UInt8] {
        named(renumbered(svg), title: title)
    }

    /// Cairo numbers `surfaceN` and `imageN` ids by a counter of the whole process (every
    /// surface ever made), so the same card gave other bytes after other renders (a batch, the
    /// service). Each such id, where it is defined (`id="`) or referred to (`#`), is renumbered
    /// in order of first appearance: the same drawing, the same bytes. Image data is base64,
    /// which holds neither `"` nor `#`, so nothing inside it matches.
    static func renumbered(_ svg: [UInt8]) -> [UInt8] {
        let prefixes = ["surface", "image"].map { Array($0.utf8) }
        var numbers = [[UInt8]: [ArraySlice<UInt8>: Int]]()
        var out = [UInt8]()
        out.reserveCapacity(svg.count)
        var i = 0
        while i < svg.count {
            let byte = svg[i]
            out.append(byte)
            i += 1
            let opensId = byte == UInt8(ascii: "#") || (byte == UInt8(ascii: "\"") && i >= 4 && svg[(i - 4)..<(i - 1)].elementsEqual("id=".utf8))
            guard opensId, let prefix = prefixes.first(where: { svg[i...].starts(with: $0) }) else { continue }
            var end = i + prefix.count
            while end < svg.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(svg[end]) { end += 1 }
            guard end > i + prefix.count else { continue }
            let digits = svg[(i + prefix.count)..<end]
            var table = numbers[prefix, default: [:]]
            let number = table[digits] ?? table.count + 1
            table[digits] = number
            numbers[prefix] = table
            out += prefix
            out += Array(String(number).utf8)
            i = end
        }
        return out
    }

    /// `svg` with `title` as the root's `<title>` (its first child, where assistive technology
    /// and browsers' tooltips look) and as `aria-label` with `role="img"` on the root. The
    /// text is XML-escaped here, the one place a user's words enter SVG markup; an empty title
    /// adds nothing. Bytes without a root element come back unchanged.
    static func named(_ svg: [UInt8], title: String) -> [UInt8] {
        let text = shortened(title.trimmed)
        guard !text.isEmpty, let open = rootTagEnd(svg) else { return svg }
        let escaped = text.xml10Escaped
        let attributes = Array(" role=\"img\" aria-label=\"\(escaped)\"".utf8)
        let child = Array("\n<title>\(escaped)</title>".utf8)
        var out = [UInt8]()
        out.reserveCapacity(svg.count + attributes.count + child.count)
        out += svg[..<open]
        out += attributes
        out.append(UInt8(ascii: ">"))
        out += child
        out += svg[(open + 1)...]
        return out
    }

    /// The longest name written, in characters: a name is read aloud, and a card of 16 MB of
    /// text would otherwise carry it twice more (title and label).
    static let maxTitle = 1_000

    /// `text` cut at the last space before `maxTitle` characters, with an ellipsis.
    static func shortened(_ text: String) -> String {
        guard text.count > maxTitle else { return text }
        let head = text.prefix(maxTitle)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        return cut + "…"
    }

    /// The offset of the `>` that ends the `<svg ...>` start tag (Cairo writes no `>` inside
    /// its attribute values).
    static func rootTagEnd(_ svg: [UInt8]) -> Int? {
        let marker = Array("<svg".utf8)
        guard svg.count > marker.count else { return nil }
        for start in 0...(svg.count - marker.count) where svg[start] == marker[0] {
            guard Array(svg[start..<(start + marker.count)]) == marker else { continue }
            return svg[(start + marker.count)...].firstIndex(of: UInt8(ascii: ">"))
        }
        return nil
    }
}
