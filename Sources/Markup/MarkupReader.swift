/// The markup scanner: one pass over the source's UTF-8 bytes, tracking line and column (in
/// scalars). Tags and entities are read a scalar at a time; plain text, nearly all of a long
/// document, is copied a stretch at a time.
struct MarkupReader {
    /// The source's UTF-8 (a String's: valid).
    private let bytes: [UInt8]
    /// A byte offset into `bytes`, always at a scalar's first byte.
    private var index = 0
    private var line = 1, column = 1
    /// The text so far, as UTF-8 (a String's scalar view copies itself on a bulk append).
    private var text: [UInt8] = []
    private var spans: [MarkupSpan] = []
    /// Open tags: name, the span's index (nil for `<markup>`), where it opened.
    private var open: [(name: String, span: Int?, position: SourcePosition)] = []

    init(_ source: String) { bytes = Array(source.utf8) }

    private var position: SourcePosition { SourcePosition(line: line, column: column) }
    private var atEnd: Bool { index >= bytes.count }

    /// The scalar that starts at byte `i`, and its length in bytes (the standard library's
    /// UTF-8 parser; tags and entities only, plain text is never decoded).
    private func scalar(at i: Int) -> (Unicode.Scalar, Int) {
        if bytes[i] < 0x80 { return (Unicode.Scalar(bytes[i]), 1) }
        var parser = Unicode.UTF8.ForwardParser()
        var rest = bytes[i...].makeIterator()
        // A String's UTF-8 is valid: the parse never fails.
        guard case let .valid(encoded) = parser.parseScalar(from: &rest) else { return ("\u{FFFD}", 1) }
        return (Unicode.UTF8.decode(encoded), encoded.count)
    }

    private mutating func advance() -> Unicode.Scalar {
        let (c, width) = scalar(at: index)
        index += width
        if c == "\n" { line += 1; column = 1 } else { column += 1 }
        return c
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        var i = index
        for _ in 0..<offset where i < bytes.count { i += scalar(at: i).1 }
        return i < bytes.count ? scalar(at: i).0 : nil
    }

    private func fail(_ message: String, at place: SourcePosition? = nil) -> MarkupError {
        MarkupError(position: place ?? position, message: message)
    }

    private mutating func emit(_ c: Unicode.Scalar) {
        UTF8.encode(c) { text.append($0) }
    }

    /// Plain text up to the next `<` or `&` (or the end), copied as its bytes; the line and
    /// column move past it (a column per scalar).
    private mutating func plainText() {
        let start = index
        let (end, newlines, counted) = bytes.withUnsafeBufferPointer { b in
            var end = start, newlines = 0, lineStart = start
            while true {
                end = Self.plainEnd.firstIndex(in: b, from: end)
                guard end < b.count, b[end] == 0x0A else { break }
                newlines += 1
                end += 1
                lineStart = end
            }
            return (end, newlines, ByteSet.scalarCount(in: b, lineStart..<end))
        }
        if newlines > 0 { line += newlines; column = 1 + counted } else { column += counted }
        text.append(contentsOf: bytes[start..<end])
        index = end
    }

    /// What ends a stretch of plain text, or moves its line: `<`, `&` and line feeds.
    private static let plainEnd = ByteSet([0x3C, 0x26, 0x0A])

    mutating func read() throws(MarkupError) -> MarkedText {
        text.reserveCapacity(bytes.count)
        while !atEnd {
            switch bytes[index] {
            case 0x3C: try tag()
            case 0x26:
                let start = position
                _ = advance()
                emit(try entity(start))
            default: plainText()
            }
        }
        if let unclosed = open.last {
            throw fail("<\(unclosed.name)> is never closed", at: unclosed.position)
        }
        return MarkedText(text: String(decoding: text, as: UTF8.self), spans: spans)
    }

    /// After `&`: a named or numeric character reference up to `;`.
    private mutating func entity(_ start: SourcePosition) throws(MarkupError) -> Unicode.Scalar {
        var name = ""
        while let c = peek(), c != ";" {
            guard name.unicodeScalars.count < 12, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "#" else {
                throw fail("'&' starts no entity (write &amp; for an ampersand)", at: start)
            }
            name.unicodeScalars.append(advance())
        }
        guard peek() == ";" else { throw fail("'&' starts no entity (write &amp; for an ampersand)", at: start) }
        _ = advance()
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
            let digits = name.dropFirst(hex ? 2 : 1)
            guard name.hasPrefix("#"), !digits.isEmpty, let value = UInt32(digits, radix: hex ? 16 : 10),
                  value != 0, let scalar = Unicode.Scalar(value) else {
                throw fail("'&\(name);' is not an entity (&amp; &lt; &gt; &quot; &apos; or &#N;)", at: start)
            }
            return scalar
        }
    }

    private mutating func name() -> String {
        var out = ""
        while let c = peek(), c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" || c == ":" {
            out.unicodeScalars.append(advance())
        }
        return out
    }

    private mutating func skipSpace() {
        while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" { _ = advance() }
    }

    private mutating func expect(_ c: Unicode.Scalar, _ what: String) throws(MarkupError) {
        guard peek() == c else { throw fail(atEnd ? "the markup ends inside a tag" : "expected \(what)") }
        _ = advance()
    }

    private mutating func tag() throws(MarkupError) {
        let start = position
        _ = advance()  // <
        if peek() == "!" && peek(1) == "-" && peek(2) == "-" {
            while !atEnd && !(peek() == "-" && peek(1) == "-" && peek(2) == ">") { _ = advance() }
            guard !atEnd else { throw fail("a comment is never closed", at: start) }
            for _ in 0..<3 { _ = advance() }
            return
        }
        if peek() == "/" {
            _ = advance()
            let tagName = name()
            skipSpace()
            try expect(">", "'>' after </\(tagName)")
            guard let top = open.last else { throw fail("</\(tagName)> closes nothing", at: start) }
            guard top.name == tagName else {
                throw fail("</\(tagName)> closes <\(top.name)> opened at \(top.position)", at: start)
            }
            open.removeLast()
            if let span = top.span { spans[span].end = text.count }
            return
        }
        let tagName = name()
        guard !tagName.isEmpty else { throw fail("'<' starts no tag (write &lt; for a less-than sign)", at: start) }
        guard tagName == "span" || tagName == "a" || tagName == "markup" || Markup.shortTags[tagName] != nil else {
            throw fail("unknown tag <\(tagName)> (b, i, u, s, sub, sup, small, big, tt, span, a)", at: start)
        }
        var attributes: [MarkupAttribute] = Markup.shortTags[tagName]?.map { MarkupAttribute(name: $0.0, value: $0.1, position: start) } ?? []
        var given: [MarkupAttribute] = []
        while true {
            skipSpace()
            guard let c = peek() else { throw fail("the markup ends inside <\(tagName)>", at: start) }
            if c == ">" || c == "/" { break }
            given.append(try attribute(of: tagName))
        }
        let selfClosing = peek() == "/"
        if selfClosing { _ = advance() }
        try expect(">", "'>' to end <\(tagName)>")
        for (i, attribute) in given.enumerated() where given[..<i].contains(where: { $0.name == attribute.name }) {
            throw fail("<\(tagName)> gives \(attribute.name) twice", at: attribute.position)
        }
        if tagName == "a" && !given.contains(where: { $0.name == "href" }) { throw fail("<a> needs href", at: start) }
        attributes += given
        guard !selfClosing else { return }
        guard open.count < Markup.maxDepth else { throw fail("tags nest deeper than \(Markup.maxDepth)", at: start) }
        var span: Int?
        if tagName != "markup" {
            spans.append(MarkupSpan(start: text.count, end: text.count, tag: tagName, attributes: attributes, position: start))
            span = spans.count - 1
        }
        open.append((tagName, span, start))
    }

    private mutating func attribute(of tagName: String) throws(MarkupError) -> MarkupAttribute {
        let start = position
        let attributeName = name()
        guard !attributeName.isEmpty else { throw fail("expected an attribute name or '>' in <\(tagName)>") }
        let allowed = tagName == "span" ? Markup.spanAttributes.contains(attributeName) : tagName == "a" && attributeName == "href"
        guard allowed else {
            let known = tagName == "span" ? "" : tagName == "a" ? " (<a> takes href)" : " (<\(tagName)> takes none)"
            throw fail("unknown attribute \(attributeName) in <\(tagName)>\(known)", at: start)
        }
        skipSpace()
        try expect("=", "'=' after \(attributeName)")
        skipSpace()
        guard let quote = peek(), quote == "\"" || quote == "'" else { throw fail("the value of \(attributeName) must be quoted") }
        _ = advance()
        var value = ""
        while let c = peek(), c != quote {
            if c == "<" { throw fail("'<' inside the value of \(attributeName)") }
            if c == "&" {
                let place = position
                _ = advance()
                value.unicodeScalars.append(try entity(place))
            } else {
                value.unicodeScalars.append(advance())
            }
        }
        guard !atEnd else { throw fail("the value of \(attributeName) is never closed", at: start) }
        _ = advance()
        return MarkupAttribute(name: attributeName, value: value, position: start)
    }
}
