import Support

/// The end of a PDF as Cairo 1.16 writes it: its trailer, its one cross-reference table (from
/// object 0) and the objects written last (the catalog, the document information, the
/// structure tree). Reads only what the catalog update needs; nil where the bytes are not laid
/// out that way.
package struct PDFTail {
    let bytes: [UInt8]
    /// The file offset of `bytes[0]`.
    let start: Int
    let xrefOffset: Int
    let root: Int
    let size: Int
    let info: Int?
    /// Cairo's table: every object's offset (read as the stream filter reads it).
    private let table: PDFXrefTable

    package init?(_ bytes: [UInt8], start: Int) {
        self.bytes = bytes
        self.start = start
        guard let startxref = PDFTail.lastIndex(of: "startxref", in: bytes), let trailerAt = PDFTail.lastIndex(of: "trailer", in: bytes)
        else { return nil }
        let after = String(decoding: bytes[(startxref + 9)...], as: UTF8.self)
        let trailer = String(decoding: bytes[trailerAt..<startxref], as: UTF8.self)[...]
        let keyword = Array("xref\n".utf8)
        guard let xref = Int(after.split(whereSeparator: \.isNewline).first?.trimmed ?? ""), xref >= start,
              bytes[(xref - start)...].starts(with: keyword),
              case .complete(let table, _, trailing: false) = PDFXrefTable.read(Array(bytes[(xref - start + keyword.count)...])),
              let root = PDFTail.number(after: "/Root", in: trailer), let size = PDFTail.number(after: "/Size", in: trailer),
              table.count == size, let rootOffset = table.offset(of: root), rootOffset >= start
        else { return nil }
        xrefOffset = xref
        self.root = root
        self.size = size
        info = PDFTail.number(after: "/Info", in: trailer)
        self.table = table
    }

    /// Object `number`'s offset in the file (nil for a free entry).
    func offset(of number: Int) -> Int? { table.offset(of: number) }

    /// Object `number`'s dictionary ("<< ... >>") when the object lies in the tail.
    func dictionary(of number: Int) -> String? {
        guard let offset = offset(of: number), offset >= start else { return nil }
        let text = String(decoding: bytes[(offset - start)...].prefix(1 << 16), as: UTF8.self)
        guard let open = text.firstRange(of: "obj"), let close = text.firstRange(of: "endobj") else { return nil }
        let dictionary = text[open.upperBound..<close.lowerBound].trimmed
        return dictionary.hasPrefix("<<") && dictionary.hasSuffix(">>") ? dictionary : nil
    }

    /// The literal string after `key` in a dictionary, with its escapes undone (ASCII only:
    /// what Cairo writes for producer and dates).
    static func literal(after key: String, in dictionary: String) -> String? {
        guard let range = dictionary.firstRange(of: key + " (") else { return nil }
        var depth = 1, out = "", escaped = false
        for c in dictionary[range.upperBound...] {
            if escaped {
                out.append(c)
                escaped = false
                continue
            }
            switch c {
            case "\\": escaped = true
            case "(": depth += 1; out.append(c)
            case ")":
                depth -= 1
                if depth == 0 { return out }
                out.append(c)
            default: out.append(c)
            }
        }
        return nil
    }

    /// Where `pattern` last starts in `bytes`.
    private static func lastIndex(of pattern: String, in bytes: [UInt8]) -> Int? {
        let p = Array(pattern.utf8)
        guard bytes.count >= p.count else { return nil }
        var i = bytes.count - p.count
        while i >= 0 {
            if bytes[i] == p[0] && bytes[i..<(i + p.count)].elementsEqual(p) { return i }
            i -= 1
        }
        return nil
    }

    /// The whole number after `key` ("/Root 19 0 R" gives 19).
    private static func number(after key: String, in text: Substring) -> Int? {
        guard let range = text.firstRange(of: key) else { return nil }
        return Int(text[range.upperBound...].drop { $0 == " " || $0.isNewline }.prefix { $0.isNumber })
    }
}
