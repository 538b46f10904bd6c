import Typeset
import Support

/// RFC 4180 CSV: fields separated by commas, quoted fields may hold commas, quotes ("") and
/// line breaks; CRLF or LF rows; a UTF-8 byte-order mark is skipped. The first row names the
/// columns.
package enum CSV {
    package struct Table: Sendable {
        package var header: [String]
        /// Each data row with its 1-based line number in the file (where the row starts).
        package var rows: [(line: Int, fields: [String])]
        /// Rows that cannot be read, with their line and why: the other rows are still good.
        package var bad: [(line: Int, message: String)] = []
    }

    package static func parse(_ text: String) throws -> Table {
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var records: [(Int, [String])] = []
        var bad: [(line: Int, message: String)] = []
        var i = scalars.startIndex
        var line = 1
        /// Past the end of the line holding `from` (after its LF or CR LF): where reading goes
        /// on when a row turns out broken, so one bad quote loses one row, not the ones after.
        func nextLine(_ from: Substring.UnicodeScalarView.Index) -> Substring.UnicodeScalarView.Index {
            var j = from
            while j < scalars.endIndex {
                let c = scalars[j]
                j = scalars.index(after: j)
                if c == "\n" { return j }
                if c == "\r" { return j < scalars.endIndex && scalars[j] == "\n" ? scalars.index(after: j) : j }
            }
            return j
        }
        rows: while i < scalars.endIndex {
            let recordLine = line
            var record: [String] = [], field = "", fieldQuoted = false, anyQuoted = false
            fields: while true {
                guard i < scalars.endIndex else { record.append(field); break fields }
                let c = scalars[i]
                switch c {
                case "\"" where field.isEmpty && !fieldQuoted:
                    // A quoted field: it may hold commas, "" and line breaks, and must be followed
                    // by a comma, a line break or the end. Otherwise the quote was not meant to
                    // open a field: the row fails and reading resumes on the next line.
                    let resume = (nextLine(i), line + 1)
                    i = scalars.index(after: i)
                    var closed = false
                    while i < scalars.endIndex {
                        let q = scalars[i]
                        i = scalars.index(after: i)
                        if q == "\"" {
                            if i < scalars.endIndex && scalars[i] == "\"" { field.unicodeScalars.append("\""); i = scalars.index(after: i); continue }
                            closed = true
                            break
                        }
                        if q == "\n" || (q == "\r" && !(i < scalars.endIndex && scalars[i] == "\n")) { line += 1 }
                        field.unicodeScalars.append(q)
                    }
                    guard closed, i == scalars.endIndex || [",", "\r", "\n"].contains(scalars[i]) else {
                        bad.append((recordLine, closed ? "text after a quoted field's closing quote (a quote inside a quoted field is written \"\")"
                                                       : "a quoted field is not closed"))
                        (i, line) = resume
                        continue rows
                    }
                    fieldQuoted = true
                    anyQuoted = true
                case "\"":
                    // This row is lost, not the file: the next line starts the next row.
                    bad.append((line, "a quote inside an unquoted field (quote the whole field)"))
                    i = nextLine(i)
                    line += 1
                    continue rows
                case ",":
                    record.append(field)
                    (field, fieldQuoted) = ("", false)
                    i = scalars.index(after: i)
                case "\r", "\n":
                    i = nextLine(i)
                    line += 1
                    record.append(field)
                    break fields
                default:
                    field.unicodeScalars.append(c)
                    i = scalars.index(after: i)
                }
            }
            // A blank line is not a record.
            if !(record.count == 1 && record[0].isEmpty && !anyQuoted) { records.append((recordLine, record)) }
        }
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
