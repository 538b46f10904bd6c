import Glibc

/// Cairo's one cross-reference table as `PDFStreamFilter` holds it: the bytes after `xref\n`
/// (`0 N`, N entries of 20 bytes, the trailer, `startxref`, `%%EOF`), read strictly so that
/// bytes which only resemble a table are told apart.
struct PDFXrefTable {
    /// What held bytes are so far.
    enum Reading {
        case incomplete
        case invalid
        /// A whole table; `trailing` when bytes follow its `%%EOF` (then it was not the end).
        case complete(PDFXrefTable, startxref: (value: Int, range: Range<Int>), trailing: Bool)
    }

    /// The table's bytes, entries as rewritten.
    private(set) var bytes: [UInt8]
    private let entriesStart: Int
    /// Its entries, object 0 included (the trailer's /Size).
    let count: Int
    private static let entry = 20

    /// Reads held bytes.
    static func read(_ bytes: [UInt8]) -> Reading {
        guard let newline = bytes.prefix(32).firstIndex(of: 0x0A) else { return bytes.count > 32 ? .invalid : .incomplete }
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard header.count == 2, header[0] == "0", let count = Int(header[1]), count > 0, count < 10_000_000 else { return .invalid }
        let entriesStart = newline + 1
        let entriesEnd = entriesStart + count * entry
        for at in stride(from: entriesStart, to: min(entriesEnd, bytes.count - entry + 1), by: entry) where !isEntry(bytes[at..<(at + entry)]) {
            return .invalid
        }
        guard bytes.count > entriesEnd else { return .incomplete }
        let rest = bytes[entriesEnd...]
        let trailer = Array("trailer\n".utf8)
        guard rest.starts(with: trailer.prefix(rest.count)) else { return .invalid }
        let limit = 4096
        let mark = Array("startxref\n".utf8)
        guard let at = PDFBytes.find(mark, in: bytes, from: entriesEnd) else { return rest.count > limit ? .invalid : .incomplete }
        var i = at + mark.count
        while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
        let digits = (at + mark.count)..<i
        let eof = Array("\n%%EOF\n".utf8)
        guard bytes.count >= i + eof.count else { return .incomplete }
        guard !digits.isEmpty, digits.count < 16, bytes[i..<(i + eof.count)].elementsEqual(eof),
              let value = Int(String(decoding: bytes[digits], as: UTF8.self)) else { return .invalid }
        let table = PDFXrefTable(bytes: Array(bytes[..<(i + eof.count)]), entriesStart: entriesStart, count: count)
        return .complete(table, startxref: (value, digits), trailing: bytes.count > i + eof.count)
    }

    /// `0000000015 00000 n \n`
    private static func isEntry(_ bytes: ArraySlice<UInt8>) -> Bool {
        let b = Array(bytes)
        return b[0..<10].allSatisfy { (0x30...0x39).contains($0) } && b[10] == 0x20 && b[11..<16].allSatisfy { (0x30...0x39).contains($0) }
            && b[16] == 0x20 && (b[17] == UInt8(ascii: "n") || b[17] == UInt8(ascii: "f")) && b[18] == 0x20 && b[19] == 0x0A
    }

    /// Object `number`'s offset, when it is in use.
    func offset(of number: Int) -> Int? {
        guard number > 0, number < count else { return nil }
        let at = entriesStart + number * Self.entry
        guard bytes[at + 17] == UInt8(ascii: "n") else { return nil }
        return Int(String(decoding: bytes[at..<(at + 10)], as: UTF8.self))
    }

    /// Gives every object in use the offset `move(number, old offset)` returns.
    mutating func moveOffsets(_ move: (Int, Int) -> Int) {
        for number in 1..<count {
            guard let old = offset(of: number) else { continue }
            let text = String(move(number, old))
            let padded = String(repeating: "0", count: max(0, 10 - text.count)) + text
            let at = entriesStart + number * Self.entry
            bytes.replaceSubrange(at..<(at + 10), with: Array(padded.utf8))
        }
    }
}

/// Byte searches the PDF readers share.
package enum PDFBytes {
    /// Where `pattern` first starts in `bytes` at or after `from`, ending at or before `upTo`
    /// (memchr for its first byte).
    package static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int = 0, upTo: Int? = nil) -> Int? {
        let limit = min(upTo ?? bytes.count, bytes.count)
        guard from >= 0, limit - from >= pattern.count, !pattern.isEmpty else { return nil }
        return bytes.withUnsafeBytes { hay -> Int? in
            let base = hay.baseAddress!
            var i = from
            let last = limit - pattern.count
            while i <= last {
                guard let hit = memchr(base + i, Int32(pattern[0]), last - i + 1) else { return nil }
                let at = hit - UnsafeMutableRawPointer(mutating: base)
                if hay[at..<(at + pattern.count)].elementsEqual(pattern) { return at }
                i = at + 1
            }
            return nil
        }
    }
}
