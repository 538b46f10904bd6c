import Support

/// What Cairo 1.16 cannot write into a PDF (the document's language, the viewer's title
/// preference, XMP metadata, a PDF/A OutputIntent, a document ID, descriptions and print flags
/// on link annotations), added as one incremental update: the objects rewritten or added, a
/// cross-reference section for them and a trailer pointing back to Cairo's. Only the file's
/// tail is read (Cairo writes the catalog, the information, its table and trailer last) and the
/// annotations caught as the file streamed, so a document of any length is patched without
/// being held.
package enum PDFCatalog {
    /// The bytes to append to a PDF whose tail is `tail`, for `pdf`'s settings; nil when the
    /// tail does not hold what Cairo writes there.
    package static func update(_ tail: PDFTail, pdf: PDFMetadata, annotations: PDFAnnotations?) -> [UInt8]? {
        guard var catalog = tail.dictionary(of: tail.root) else { return nil }
        var information = tail.info.flatMap { tail.dictionary(of: $0) } ?? "<< >>"
        var next = tail.size
        var objects: [(number: Int, bytes: [UInt8])] = []
        // Cairo 1.16 writes dates it was given without the "D:" every date needs.
        if let info = tail.info, information.contains("Date (2") {
            information = information.replacing("/CreationDate (2", with: "/CreationDate (D:2").replacing("/ModDate (2", with: "/ModDate (D:2")
            objects.append((info, Array("\(info) 0 obj\n\(information)\nendobj\n".utf8)))
        }
        var extra = " " + pdf.catalogEntries
        if let xmp = pdf.xmp(information: PDFInformation(information)) {
            let number = next
            next += 1
            objects.append((number, stream(number, "/Type /Metadata /Subtype /XML", Array(xmp.utf8))))
            extra += " /Metadata \(number) 0 R"
        }
        if pdf.standards.contains(.a2b) {
            let number = next
            next += 1
            objects.append((number, stream(number, "/N 3", SRGBProfile.bytes)))
            let name = literal(SRGBProfile.conditionIdentifier)
            extra += " /OutputIntents [<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier \(name) /Info \(name)"
                + " /RegistryName (http://www.color.org) /DestOutputProfile \(number) 0 R >>]"
        }
        catalog.removeLast(2)
        objects.append((tail.root, Array("\(tail.root) 0 obj\n\(catalog)\(extra) >>\nendobj\n".utf8)))
        if let annotations {
            objects += described(annotations, tail)
            objects += elements(annotations.elements, language: pdf.documentLanguage, tail)
        }

        var body: [UInt8] = tail.bytes.last == UInt8(ascii: "\n") ? [] : [0x0A]
        var entries: [(Int, Int)] = []
        for object in objects {
            entries.append((object.number, tail.start + tail.bytes.count + body.count))
            body += object.bytes
        }
        let offset = tail.start + tail.bytes.count + body.count
        var out = "xref\n"
        for (number, at) in entries.sorted(by: { $0.0 < $1.0 }) { out += "\(number) 1\n\(entry(at))" }
        // The ID: the same input gives the same file, so it is a digest of what the file ends with.
        let id = SHA256.hex(Array(tail.bytes.suffix(1 << 16)) + body).prefix(32)
        out += "trailer\n<< /Size \(next) /Root \(tail.root) 0 R" + (tail.info.map { " /Info \($0) 0 R" } ?? "")
            + " /Prev \(tail.xrefOffset) /ID [<\(id)> <\(id)>] >>\n"
        out += "startxref\n\(offset)\n%%EOF\n"
        return body + Array(out.utf8)
    }

    /// Each link annotation caught where the table says it is, with /Contents (its visible
    /// text, or its address) and /F 4 (printed, shown).
    private static func described(_ annotations: PDFAnnotations, _ tail: PDFTail) -> [(number: Int, bytes: [UInt8])] {
        let links = annotations.caught.filter { tail.offset(of: $0.number) == $0.offset && $0.text.contains("/Subtype /Link") }
        let texts = annotations.linkTexts.count == links.count ? annotations.linkTexts : nil
        return links.enumerated().compactMap { index, link in
            // The dictionary's own ">>": the last before "endobj" (the text ends there).
            guard let close = link.text.ranges(of: ">>").last else { return nil }
            let address = link.text.firstRange(of: "/URI (").map { String(link.text[$0.upperBound...].prefix { $0 != ")" }) } ?? ""
            let contents = texts.map { $0[index].trimmed }.flatMap { $0.isEmpty ? nil : $0 } ?? address
            return (link.number, Array((link.text[..<close.lowerBound] + " /F 4 /Contents \(textString(contents)) >>\nendobj\n").utf8))
        }
    }

    /// The structure elements that need what Cairo 1.16 cannot write: a Figure's /Alt, and
    /// /Lang where an element's language is not the document's. Found in the tail in object
    /// order (Cairo numbers the tree depth first: drawing order), matched one to one with the
    /// notes; none when the counts differ.
    private static func elements(_ notes: [(language: String?, alt: String?)], language document: String,
                                 _ tail: PDFTail) -> [(number: Int, bytes: [UInt8])] {
        let needed = { (note: (language: String?, alt: String?)) in
            note.alt != nil || (note.language.map { $0 != document && PDFMetadata.isLanguageTag($0) } ?? false)
        }
        guard notes.contains(where: needed) else { return [] }
        let found = (1..<tail.size).compactMap { number -> (Int, String)? in
            guard let dictionary = tail.dictionary(of: number), dictionary.contains("/StructElem"),
                  !dictionary.contains("/S /Document"), !dictionary.contains("/S /Link") else { return nil }
            return (number, dictionary)
        }
        guard found.count == notes.count else { return [] }
        return zip(found, notes).compactMap { element, note in
            guard needed(note) else { return nil }
            var extra = note.alt.map { " /Alt \(textString($0))" } ?? ""
            if let language = note.language, language != document, PDFMetadata.isLanguageTag(language) { extra += " /Lang \(literal(language))" }
            return (element.0, Array("\(element.0) 0 obj\n\(element.1.dropLast(2))\(extra) >>\nendobj\n".utf8))
        }
    }

    /// An uncompressed stream object.
    private static func stream(_ number: Int, _ keys: String, _ data: [UInt8]) -> [UInt8] {
        Array("\(number) 0 obj\n<< \(keys) /Length \(data.count) >>\nstream\n".utf8) + data + Array("\nendstream\nendobj\n".utf8)
    }

    /// One cross-reference entry: a 10-digit offset, generation 0, in use.
    private static func entry(_ offset: Int) -> String {
        let text = String(offset)
        return String(repeating: "0", count: max(0, 10 - text.count)) + text + " 00000 n \n"
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

    /// A PDF text string from a user's text (a link's words, a picture's alt): UTF-16BE with
    /// its byte-order mark, in hex, so no byte of the text is in the file as itself (words like
    /// "/S /JavaScript" cannot read as syntax, to a reader or to a scan of the file).
    static func textString(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        return "<FEFF" + String(text.utf16.flatMap { unit in [12, 8, 4, 0].map { digits[Int(unit >> $0) & 0xF] } }) + ">"
    }
}
