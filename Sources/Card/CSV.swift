import Typeset
import Support

/// RFC 4180 CSV: fields separated by commas, quoted fields may hold commas, quotes ("") and
/// line breaks; CRLF or LF rows; a UTF-8 byte-order mark is skipped. The first row names the
/// columns.
public enum CSV {
    public struct Table: Sendable {
        public var header: [String]
        /// Each data row with its 1-based line number in the file (where the row starts).
        public var rows: [(line: Int, fields: [String])]
        /// Rows that cannot be read, with their line and why: the other rows are still good.
        public var bad: [(line: Int, message: String)] = []
    }

    public static func parse(_ text: String) throws -> Table {
        var records: [(Int, [String])] = []
        var bad: [(line: Int, message: String)] = []
        var broken = false  // the current record had a stray quote: skipped to its line's end
        var field = ""
        var record: [String] = []
        var quoted = false, wasQuoted = false
        var line = 1, recordLine = 1
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending { pending = nil; return p }
            return iterator.next()
        }
        func endRecord() {
            record.append(field)
            // A blank line is not a record.
            if !broken && !(record.count == 1 && record[0].isEmpty && !wasQuoted) { records.append((recordLine, record)) }
            broken = false
            record = []
            field = ""
            wasQuoted = false
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let following = next() {
                        if following == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = following }
                    } else {
                        quoted = false
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            if broken, c != "\n", c != "\r" { continue }
            switch c {
            case "\"":
                guard field.isEmpty else {
                    // This row is lost, not the file: the next line starts the next row.
                    bad.append((line, "a quote inside an unquoted field (quote the whole field)"))
                    broken = true
                    continue
                }
                quoted = true
                wasQuoted = true
            case ",":
                record.append(field)
                field = ""
            case "\r":
                if let following = next(), following != "\n" { pending = following }
                endRecord()
                line += 1
                recordLine = line
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            default:
                field.unicodeScalars.append(c)
            }
        }
        if quoted { throw CardError("line \(recordLine)", "a quoted field is not closed") }
        if !field.isEmpty || !record.isEmpty || wasQuoted { endRecord() }
        guard let header = records.first else { throw CardError("", "the CSV file is empty (the first row names the columns)") }
        let names = header.1.map { $0.trimmed }
        for (i, name) in names.enumerated() where name.isEmpty {
            throw CardError("line 1", "column \(i + 1) has no name")
        }
        guard header.0 < (bad.first?.line ?? Int.max) else { throw CardError("line \(bad[0].line)", bad[0].message) }
        var rows: [(line: Int, fields: [String])] = []
        for (recordLine, fields) in records.dropFirst() {
            guard fields.count == names.count else {
                bad.append((recordLine, "\(fields.count) fields, but the header names \(names.count)"))
                continue
            }
            rows.append((recordLine, fields))
        }
        return Table(header: names, rows: rows, bad: bad.sorted { $0.line < $1.line })
    }
}
