/// Marks what a tagged page draws outside its structure elements as an Artifact (backgrounds,
/// highlight shapes, shadows, underlines, page numbers, headers): PDF/UA asks that every
/// painted thing be either in the structure tree or an Artifact, and Cairo 1.16 cannot open an
/// Artifact (`cairo_tag_begin(cr, "Artifact", ...)` fails the file at finish). So each page's
/// content stream is rewritten: every graphics object painted outside marked content is put in
/// `/Artifact BMC ... EMC`. An Artifact is closed before `q`, `Q` and structure content, so it
/// nests with both; clipping paths (`n`) and state operators are left where they are.
package enum PDFArtifacts {
    /// `content` (a page's decoded content stream) with its unmarked graphics objects marked as
    /// Artifacts; nil when nothing needs marking, or when the stream is not a Cairo page's
    /// (it starts with Cairo's flip, `1 0 0 -1 0 h cm`) or is not read to its end cleanly
    /// (an inline image, unbalanced marked content): such a stream is kept as it is.
    package static func marked(_ content: [UInt8]) -> [UInt8]? {
        var marker = Marker(content)
        return marker.run() ? marker.output : nil
    }

    private struct Marker {
        let input: [UInt8]
        var output: [UInt8] = []
        /// Input before this index is in `output`.
        var copied = 0
        var depth = 0
        var open = false
        var inText = false
        /// Where the current path object's first operand starts, while one is being built.
        var pathStart: Int?
        var changed = false
        var operatorCount = 0
        /// The first operand since the last operator, when there is one.
        var firstOperand: Range<Int>?

        init(_ input: [UInt8]) {
            self.input = input
            output.reserveCapacity(input.count + input.count / 8 + 64)
        }

        static let begin = Array("/Artifact BMC\n".utf8)
        static let end = Array("EMC\n".utf8)

        /// An operator's name as a number (its bytes, at most three; longer ones are none of
        /// those this looks for): no string is made per operator.
        static func key(_ name: String) -> UInt32 { key(Array(name.utf8)[...]) }
        static func key(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            guard bytes.count <= 3 else { return .max }
            return bytes.reduce(0) { $0 << 8 | UInt32($1) }
        }
        static let painting: Set<UInt32> = Set(["S", "s", "f", "F", "f*", "B", "B*", "b", "b*"].map(key))
        static let (bdc, bmc, emc, q, bigQ, bt, et, doOp, sh, n, m, re, cm) =
            (key("BDC"), key("BMC"), key("EMC"), key("q"), key("Q"), key("BT"), key("ET"), key("Do"), key("sh"), key("n"), key("m"), key("re"), key("cm"))
        static let inline: Set<UInt32> = [key("BI"), key("ID"), key("EI")]
        static let breaksObjects: Set<UInt32> = [bdc, bmc, emc, bt, doOp, sh, q, bigQ]

        /// Copies input up to `at` and adds `bytes` there.
        mutating func insert(_ bytes: [UInt8], at: Int) {
            output.append(contentsOf: input[copied..<at])
            output.append(contentsOf: bytes)
            copied = at
            changed = true
        }

        mutating func openArtifact(at: Int) {
            guard !open else { return }
            insert(Self.begin, at: at)
            open = true
        }

        mutating func closeArtifact(at: Int) {
            guard open else { return }
            insert(Self.end, at: at)
            open = false
        }

        mutating func run() -> Bool {
            var lexer = PDFContentLexer(input)
            while let token = lexer.next() {
                switch token {
                case .invalid: return false
                case .operand(let range): if firstOperand == nil { firstOperand = range }
                case .operator(let range):
                    guard take(Self.key(input[range]), start: firstOperand?.lowerBound ?? range.lowerBound, end: range.lowerBound) else { return false }
                    firstOperand = nil
                }
            }
            guard depth == 0, !inText, pathStart == nil, firstOperand == nil else { return false }
            if open {
                let tail: [UInt8] = input.last == 0x0A ? Self.end : [0x0A] + Self.end
                insert(tail, at: input.count)
                open = false
            }
            guard changed else { return false }
            output.append(contentsOf: input[copied...])
            return true
        }

        /// One operator, whose operands are `input[start..<end]`; false when the stream is not
        /// one this reads.
        mutating func take(_ name: UInt32, start: Int, end: Int) -> Bool {
            operatorCount += 1
            if operatorCount == 1 {
                // Cairo's page content opens with its flip; a Type 3 glyph's with d0/d1.
                guard name == Self.cm, input[start..<end].starts(with: "1 0 0 -1 0 ".utf8) else { return false }
            }
            if Self.inline.contains(name) { return false }
            // Marked content or another object inside a path or text object is not a stream
            // Cairo writes (and an Artifact opened there would cross it): left as it is.
            if pathStart != nil && Self.breaksObjects.contains(name) { return false }
            if inText && (name == Self.bt || (depth == 0 && (name == Self.bdc || name == Self.bmc || name == Self.emc))) { return false }
            switch name {
            case Self.bdc, Self.bmc:
                let tag = firstOperand.map { input[$0] }
                if depth == 0 && !(tag?.elementsEqual("/Artifact".utf8) ?? false) {
                    let structure = name == Self.bdc && PDFBytes.find(Array("/MCID".utf8), in: Array(input[start..<end])) != nil
                    // Marked content of no structure element (Cairo's ActualText spans) goes
                    // inside an Artifact; a structure element's closes one.
                    if structure { closeArtifact(at: start) } else { openArtifact(at: start) }
                }
                depth += 1
            case Self.emc:
                depth -= 1
                if depth < 0 { return false }
            default:
                guard depth == 0 else { return true }
                switch name {
                case Self.q, Self.bigQ:
                    guard pathStart == nil, !inText else { return false }
                    closeArtifact(at: start)
                case Self.bt:
                    openArtifact(at: start)
                    inText = true
                case Self.et:
                    inText = false
                case Self.doOp, Self.sh:
                    if !inText { openArtifact(at: start) }
                case Self.n:
                    pathStart = nil
                default:
                    if name == Self.m || name == Self.re, pathStart == nil, !inText {
                        pathStart = start
                    } else if Self.painting.contains(name), let at = pathStart {
                        openArtifact(at: at)
                        pathStart = nil
                    }
                }
            }
            return true
        }
    }
}

/// The tokens of a PDF content stream: operands (numbers, names, strings, arrays and
/// dictionaries' parts) and operators, by their byte ranges.
struct PDFContentLexer {
    enum Token {
        case operand(Range<Int>)
        case `operator`(Range<Int>)
        /// A string or hex string that does not end.
        case invalid
    }

    private let bytes: [UInt8]
    private var at = 0
    private static let trueWord = Array("true".utf8), falseWord = Array("false".utf8), nullWord = Array("null".utf8)

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            return true
        default: return false
        }
    }

    /// The next token; nil at the end.
    mutating func next() -> Token? {
        while at < bytes.count {
            let byte = bytes[at]
            if Self.isSpace(byte) { at += 1; continue }
            if byte == UInt8(ascii: "%") {
                while at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D { at += 1 }
                continue
            }
            let start = at
            switch byte {
            case UInt8(ascii: "("):
                var nesting = 0
                while at < bytes.count {
                    let c = bytes[at]
                    at += 1
                    if c == UInt8(ascii: "\\") { at += 1 } else if c == UInt8(ascii: "(") { nesting += 1 } else if c == UInt8(ascii: ")") {
                        nesting -= 1
                        if nesting == 0 { return .operand(start..<at) }
                    }
                }
                return .invalid
            case UInt8(ascii: "<"):
                if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "<") {
                    at += 2
                    return .operand(start..<at)
                }
                while at < bytes.count, bytes[at] != UInt8(ascii: ">") { at += 1 }
                guard at < bytes.count else { return .invalid }
                at += 1
                return .operand(start..<at)
            case UInt8(ascii: ">"):
                at += at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: ">") ? 2 : 1
                return .operand(start..<at)
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ")"):
                at += 1
                return .operand(start..<at)
            case UInt8(ascii: "/"):
                at += 1
                while at < bytes.count, !Self.isSpace(bytes[at]), !Self.isDelimiter(bytes[at]) { at += 1 }
                return .operand(start..<at)
            default:
                while at < bytes.count, !Self.isSpace(bytes[at]), !Self.isDelimiter(bytes[at]) { at += 1 }
                let first = bytes[start]
                let numeric = (0x30...0x39).contains(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                let word = bytes[start..<at]
                // Compared only when the length can match (most words are operators: Tj, TJ, re...).
                let keyword = (word.count == 4 || word.count == 5)
                    && (word.elementsEqual(Self.trueWord) || word.elementsEqual(Self.falseWord) || word.elementsEqual(Self.nullWord))
                return numeric || keyword ? .operand(start..<at) : .operator(start..<at)
            }
        }
        return nil
    }
}
