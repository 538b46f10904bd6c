import Card
import Dispatch
import Synchronization
import Typeset
import Support

/// The rows of a batch: each a card spec (JSON, variables unfilled), its variables, and the
/// output file name it asks for.
package struct BatchRow: Sendable {
    /// 1-based, as the error messages and the report count.
    package var number: Int
    package var spec: JSONValue
    package var variables: [String: String]
    package var output: String
    /// A manifest line's "compare" object: this card's comparison limits with --expect-dir.
    package var compare: JSONValue? = nil
    /// The spec's JSON text as the manifest line gave it: it stands for the spec in a golden
    /// suite's key of the card (serialising the parsed spec again was a twelfth of a suite's
    /// run that skipped every card). Nil for a template's rows, and when no suite asked for it.
    package var specText: String? = nil
    /// Why this data row could not be read ("rows.csv: line 3: ..."): it fails alone, the
    /// other rows render.
    package var problem: String? = nil
}

package enum BatchManifest {
    /// `CARDS.jsonl`: one card spec per line, each with "output". A line that is no card (not
    /// JSON, not an object, no output, bad UTF-8) is a failed row with its line number: the
    /// other rows render.
    /// `keepText`: each row keeps its line's text (`specText`, a golden suite's key of it).
    package static func cards(_ bytes: [UInt8], name: String, keepText: Bool = false) throws -> [BatchRow] {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // Lines are parsed on every core, a slice of 256 at a time, each slice's rows kept in its
        // own place (memory follows the rows, not the lines: a file of blank lines holds none):
        // reading a 10,000-row manifest was most of an unchanged suite's run.
        let slice = 256
        let parsed = Mutex([[BatchRow]](repeating: [], count: (lines.count + slice - 1) / slice))
        DispatchQueue.concurrentPerform(iterations: (lines.count + slice - 1) / slice) { k in
            var made: [BatchRow] = []
            for index in (k * slice)..<min(lines.count, (k + 1) * slice) {
                let line = lines[index]
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                do throws(BatchError) {
                    made.append(try card(Array(line), name: name, line: index + 1, keepText: keepText))
                } catch {
                    made.append(BatchRow(number: index + 1, spec: .null, variables: [:], output: "", problem: error.description))
                }
            }
            parsed.withLock { $0[k] = made }
        }
        return parsed.withLock { $0.flatMap { $0 } }
    }

    private static func card(_ line: [UInt8], name: String, line number: Int, keepText: Bool) throws(BatchError) -> BatchRow {
        let fail = { (message: String) in BatchError("\(name): line \(number): \(message)") }
        guard String.validatedUTF8(line[...]) != nil else { throw fail("not valid UTF-8") }
        let spec: JSONValue
        do {
            spec = try JSONValue.parse(line)
        } catch let error as JSONSyntaxError {
            throw fail("\(error.message) (column \(error.column))")
        } catch {
            throw fail("\(error)")
        }
        guard case let .object(members) = spec else { throw fail("a card must be a JSON object, not \(spec.typeName)") }
        guard case let .string(output)? = spec["output"] else { throw fail("output: is missing (the file name to write)") }
        var card = spec
        var compare: JSONValue?
        if let value = spec["compare"] {
            // Not a card key: how the golden comparison treats this card.
            guard case .object = value else { throw fail("compare: must be an object, e.g. {\"max-diff-pixels\": 20}") }
            compare = value
            card = .object(members.filter { $0.key != "compare" })
        }
        var row = BatchRow(number: number, spec: card, variables: [:], output: output, compare: compare)
        if keepText { row.specText = String(decoding: line, as: UTF8.self) }
        return row
    }

    /// `--template CARD.json --data ROWS.csv|ROWS.jsonl --output PATTERN`: each row fills the
    /// template's variables and the output pattern. A row that cannot be read (bad UTF-8, a
    /// broken quote, not an object) fails alone, named by its line.
    package static func template(_ template: JSONValue, data: [UInt8], dataName: String, pattern: String) throws -> [BatchRow] {
        // Lines holding bytes that are not UTF-8: their rows fail; the rest is read as it is.
        // CSV counts a lone CR as a line break too (as its parser does), JSONL only LF.
        let csv = dataName.lowercased().hasSuffix(".csv")
        let lines = Self.lines(data, loneCR: csv)
        var invalid = Set<Int>()
        for (index, line) in lines.enumerated() where String.validatedUTF8(line) == nil { invalid.insert(index + 1) }
        let text = String(decoding: data, as: UTF8.self)
        let notUTF8 = { (line: Int) in BatchError("\(dataName): line \(line): not valid UTF-8") }
        // Each row with its line, or why that line is not a row: a bad row fails alone.
        var rows: [(line: Int, values: Result<[String: String], BatchError>)] = []
        if csv {
            do {
                let table = try CSV.parse(text)
                if let first = invalid.min(), first == 1 { throw BatchError("\(dataName): line 1: not valid UTF-8 (the header)") }
                rows = table.rows.map { line, fields in (line, .success(Dictionary(zip(table.header, fields), uniquingKeysWith: { $1 }))) }
                rows += table.bad.map { ($0.line, .failure(BatchError("\(dataName): line \($0.line): \($0.message)"))) }
                rows.sort { $0.line < $1.line }
                // A row runs from its line to the next row's: bad bytes anywhere in it fail it.
                for k in rows.indices where !invalid.isEmpty {
                    let end = max(rows[k].line + 1, k + 1 < rows.count ? rows[k + 1].line : lines.count + 1)
                    if let line = (rows[k].line..<end).first(where: invalid.contains) { rows[k].values = .failure(notUTF8(line)) }
                }
            } catch let error as CardError {
                throw BatchError("\(dataName): \(error)")
            }
        } else {
            for (index, line) in lines.enumerated() {
                guard !line.allSatisfy({ [0x20, 0x09, 0x0D].contains($0) }) else { continue }
                guard !invalid.contains(index + 1) else { rows.append((index + 1, .failure(notUTF8(index + 1)))); continue }
                let text = String(decoding: line, as: UTF8.self)[...]
                rows.append((index + 1, Result { () throws(BatchError) in try jsonRow(text, dataName: dataName, line: index + 1) }))
            }
        }
        return rows.enumerated().map { i, row in
            switch row.values {
            case let .success(values): BatchRow(number: i + 1, spec: template, variables: values, output: pattern)
            case let .failure(error): BatchRow(number: i + 1, spec: template, variables: [:], output: "", problem: error.description)
            }
        }
    }

    /// The bytes of each line, without its break: LF, CR LF, and with `loneCR` a CR alone.
    static func lines(_ data: [UInt8], loneCR: Bool) -> [ArraySlice<UInt8>] {
        guard loneCR else { return data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) }
        var out: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i < data.count {
            switch data[i] {
            case UInt8(ascii: "\n"):
                out.append(data[start..<i])
                start = i + 1
            case UInt8(ascii: "\r"):
                out.append(data[start..<i])
                if i + 1 < data.count && data[i + 1] == UInt8(ascii: "\n") { i += 1 }
                start = i + 1
            default: break
            }
            i += 1
        }
        out.append(data[start...])
        return out
    }

    /// One JSONL data row: an object of variables.
    private static func jsonRow(_ line: Substring, dataName: String, line number: Int) throws(BatchError) -> [String: String] {
        let object: JSONValue
        do {
            object = try JSONValue.parse(Array(line.utf8))
        } catch let error as JSONSyntaxError {
            throw BatchError("\(dataName): line \(number): \(error.message)")
        } catch {
            throw BatchError("\(dataName): line \(number): \(error)")
        }
        guard case let .object(members) = object else {
            throw BatchError("\(dataName): line \(number): a data row must be a JSON object of variables")
        }
        var values: [String: String] = [:]
        for (key, value) in members {
            switch value {
            case let .string(s): values[key] = s
            case .number:
                guard let text = try? OptionInput.json(value).string() else {
                    throw BatchError("\(dataName): line \(number): \(key): not a number hlrender can write")
                }
                values[key] = text
            case let .bool(b): values[key] = b ? "true" : "false"
            default: throw BatchError("\(dataName): line \(number): \(key): must be a string, number or boolean")
            }
        }
        return values
    }

    /// The output path under `folder`, refused when it would leave it.
    package static func outputPath(_ name: String, in folder: String) throws -> String {
        // By bytes: '/' and '.' are ASCII, so UTF-8 components are the path's (split by
        // Character, this was a tenth of an unchanged golden suite's run).
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let parts = name.utf8.split(separator: slash, omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.first != slash, !parts.contains(where: { $0.elementsEqual([dot, dot]) }),
              parts.contains(where: { !$0.isEmpty }) else {
            throw CardError("output", "'\(name)' must be a relative file name inside the output folder")
        }
        guard parts.contains(where: \.isEmpty) else { return folder + "/" + name }
        return folder + "/" + parts.filter { !$0.isEmpty }.map { String(Substring($0)) }.joined(separator: "/")
    }
}

/// A batch input that cannot be read as rows: its file and line in the message.
package struct BatchError: Error, CustomStringConvertible, Sendable {
    package let description: String
    init(_ description: String) { self.description = description }
}
