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
    }

    public static func parse(_ text: String) throws -> Table {
        var records: [(Int, [String])] = []
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
            if !(record.count == 1 && record[0].isEmpty && !wasQuoted) { records.append((recordLine, record)) }
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
            switch c {
            case "\"":
                guard field.isEmpty else { throw CardError("line \(line)", "a quote inside an unquoted field (quote the whole field)") }
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
        var rows: [(line: Int, fields: [String])] = []
        for (recordLine, fields) in records.dropFirst() {
            guard fields.count == names.count else {
                throw CardError("line \(recordLine)", "\(fields.count) fields, but the header names \(names.count)")
            }
            rows.append((recordLine, fields))
        }
        return Table(header: names, rows: rows)
    }
}
