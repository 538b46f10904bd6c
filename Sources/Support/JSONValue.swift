/// A JSON value that keeps object members in their order (so errors and dumps read the way the
/// file does), parsed by a small strict reader that reports line and column.
package enum JSONValue: Equatable, Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(x), .array(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    /// The member `key` of an object (the last one when repeated).
    package subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    package var typeName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "true or false"
        case .null: return "null"
        }
    }

    /// Parses UTF-8 JSON; errors name the line and column.
    package static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }
}

package struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    package var line: Int
    package var column: Int
    package var message: String
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
    package var description: String { "line \(line), column \(column): \(message)" }
}

private struct JSONReader {
    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> JSONSyntaxError {
        let before = bytes[..<min(at, bytes.count)]
        let line = before.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        let lineStart = before.lastIndex(of: 10).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<min(at, bytes.count)], as: UTF8.self).count + 1
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        // A switch, not an array's contains: that made an array for every byte looked at.
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 200 else { throw error("nested too deeply") }
        skipSpace()
        guard at < bytes.count else { throw error("unexpected end of the file") }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            var members: [(key: String, value: JSONValue)] = []
            // Room for a card spec's keys at once: grown one by one, a 10,000-line manifest
            // spent a tenth of its parse copying member arrays.
            members.reserveCapacity(8)
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
                let key = try string()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
                at += 1
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard at < bytes.count else { throw error("unexpected end of the file in an object") }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            at += 1
            var items: [JSONValue] = []
            items.reserveCapacity(4)
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard at < bytes.count else { throw error("unexpected end of the file in an array") }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            return try number()
        }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        let w = Array(word.utf8)
        guard at + w.count <= bytes.count, Array(bytes[at..<(at + w.count)]) == w else { throw error("unexpected character") }
        at += w.count
        return value
    }

    mutating func number() throws -> JSONValue {
        let start = at
        while at < bytes.count, "+-0123456789.eE".utf8.contains(bytes[at]) { at += 1 }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard !text.isEmpty, let value = Double(text), value.isFinite else {
            at = start
            throw error(text.isEmpty ? "unexpected character" : "'\(text)' is not a number")
        }
        return .number(value)
    }

    mutating func string() throws -> String {
        at += 1  // opening quote
        // The plain run up to the first escape, control or the closing quote; a string with
        // no escape (most of them) is made from its bytes at once.
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 { at += 1 }
        if at < bytes.count, bytes[at] == UInt8(ascii: "\"") {
            at += 1
            guard let text = String.validatedUTF8(bytes[start..<(at - 1)]) else { throw error("a string is not valid UTF-8") }
            return text
        }
        var out = Array(bytes[start..<at])
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                guard let text = String.validatedUTF8(out[...]) else { throw error("a string is not valid UTF-8") }
                return text
            }
            if byte < 0x20 { throw error("a control character inside a string (write \\n for a newline)") }
            if byte == UInt8(ascii: "\\") {
                at += 1
                guard at < bytes.count else { break }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar), at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"),
                       bytes[at + 1] == UInt8(ascii: "u") {
                        at += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in \\u escapes") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let s = Unicode.Scalar(scalar) else { throw error("a lone surrogate in \\u escapes") }
                    out.append(contentsOf: Array(String(s).utf8))
                default: throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
                continue
            }
            out.append(byte)
            at += 1
        }
        throw error("a string is not closed")
    }

    mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16) else {
            throw error("expected four hex digits after \\u")
        }
        at += 4
        return value
    }
}
