import Support

/// What Cairo 1.16 cannot put in a PDF's catalog (the document's language, the viewer's
/// title preference), added as an incremental update: the catalog object rewritten with the
/// extra entries, a one-entry cross-reference section and a trailer pointing back to Cairo's.
/// Only the file's tail is read (Cairo writes the catalog, its cross-reference table and
/// trailer last), so a streamed document of any length is patched without being held.
enum PDFCatalog {
    /// The bytes to append to a PDF whose last `tail.count` bytes are `tail`, starting at
    /// offset `tailStart`; nil when the tail does not hold the catalog, the table and the
    /// trailer as Cairo writes them. `entries` is PDF dictionary syntax, already escaped.
    static func update(tail: [UInt8], tailStart: Int, entries: String, metadata: String? = nil) -> [UInt8]? {
        guard let startxref = lastIndex(of: "startxref", in: tail), let trailerAt = lastIndex(of: "trailer", in: tail) else { return nil }
        let after = String(decoding: tail[(startxref + 9)...], as: UTF8.self)
        let trailer = String(decoding: tail[trailerAt..<startxref], as: UTF8.self)[...]
        guard let xrefOffset = Int(after.split(whereSeparator: \.isNewline).first?.trimmed ?? ""),
              let root = number(after: "/Root", in: trailer), let size = number(after: "/Size", in: trailer),
              let catalogOffset = offset(of: root, xref: xrefOffset, tail: tail, tailStart: tailStart),
              catalogOffset >= tailStart
        else { return nil }
        let info = number(after: "/Info", in: trailer)
        // The catalog's dictionary: from its "obj" to its "endobj", the final ">>" opened up.
        let objectText = String(decoding: tail[(catalogOffset - tailStart)...], as: UTF8.self)
        guard let open = objectText.firstRange(of: "obj"), let close = objectText.firstRange(of: "endobj") else { return nil }
        var dictionary = objectText[open.upperBound..<close.lowerBound].trimmed
        guard dictionary.hasPrefix("<<"), dictionary.hasSuffix(">>") else { return nil }
        dictionary.removeLast(2)
        // An XMP packet, when given, is a new object (number `size`) the catalog points at.
        let metadataEntry = metadata == nil ? "" : " /Metadata \(size) 0 R"
        let object = "\(root) 0 obj\n\(dictionary) \(entries)\(metadataEntry) >>\nendobj\n"
        let end = tailStart + tail.count
        let separator = tail.last == UInt8(ascii: "\n") ? "" : "\n"
        let objectStart = end + separator.utf8.count
        var out = separator + object
        var xref = "xref\n\(root) 1\n\(entry(objectStart))"
        if let metadata {
            let packet = Array(metadata.utf8)
            let stream = "\(size) 0 obj\n<< /Type /Metadata /Subtype /XML /Length \(packet.count) >>\nstream\n\(metadata)\nendstream\nendobj\n"
            xref += "\(size) 1\n\(entry(objectStart + object.utf8.count))"
            out += stream
        }
        let xrefStart = objectStart + out.utf8.count - separator.utf8.count
        out += xref
        out += "trailer\n<< /Size \(size + (metadata == nil ? 0 : 1)) /Root \(root) 0 R" + (info.map { " /Info \($0) 0 R" } ?? "")
            + " /Prev \(xrefOffset) >>\n"
        out += "startxref\n\(xrefStart)\n%%EOF\n"
        return Array(out.utf8)
    }

    /// One cross-reference entry: a 10-digit offset, generation 0, in use.
    private static func entry(_ offset: Int) -> String {
        let text = String(offset)
        return String(repeating: "0", count: max(0, 10 - text.count)) + text + " 00000 n \n"
    }

    /// Where `pattern` last starts in `bytes`.
    private static func lastIndex(of pattern: String, in bytes: [UInt8]) -> Int? {
        let p = Array(pattern.utf8)
        guard bytes.count >= p.count else { return nil }
        var i = bytes.count - p.count
        while i >= 0 {
            if bytes[i] == p[0] && Array(bytes[i..<(i + p.count)]) == p { return i }
            i -= 1
        }
        return nil
    }

    /// The whole number after `key` ("/Root 19 0 R" gives 19).
    private static func number(after key: String, in text: Substring) -> Int? {
        guard let range = text.firstRange(of: key) else { return nil }
        return Int(text[range.upperBound...].drop { $0 == " " || $0.isNewline }.prefix { $0.isNumber })
    }

    /// Object `number`'s offset from a classic cross-reference table at `xref` (one section
    /// from 0, as Cairo writes it).
    private static func offset(of number: Int, xref: Int, tail: [UInt8], tailStart: Int) -> Int? {
        guard xref >= tailStart else { return nil }
        let table = String(decoding: tail[(xref - tailStart)...], as: UTF8.self)
        let lines = table.split(whereSeparator: \.isNewline)
        guard lines.count > 2, lines[0].trimmed == "xref" else { return nil }
        let header = lines[1].split(separator: " ")
        guard header.count == 2, header[0] == "0", let count = Int(header[1]), number < count, lines.count > number + 2 else { return nil }
        return Int(lines[number + 2].prefix(10))
    }

    /// A PDF literal string: backslash, parentheses escaped; anything outside printable ASCII
    /// as an octal escape.
    static func literal(_ text: String) -> String {
        var out = "("
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"): out += "\\" + String(UnicodeScalar(byte))
            case 0x20..<0x7F: out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out + ")"
    }
}
