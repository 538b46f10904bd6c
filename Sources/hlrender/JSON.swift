/// A small JSON value that keeps its keys in the order given (JSONEncoder on Linux does not),
/// so machine reports read the same way every time.
enum JSON {
    /// Members in order (an array of pairs, not a dictionary, to keep that order).
    case object([JSONMember])
    case array([JSON])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    func serialized(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case let .object(members):
            if members.isEmpty { return "{}" }
            let body = members.map { "\(inner)\(JSON.quote($0.key)): \($0.value.serialized(indent: inner))" }
            return "{\n" + body.joined(separator: ",\n") + "\n\(indent)}"
        case let .array(items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + $0.serialized(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case let .string(text): return JSON.quote(text)
        case let .number(value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case let .bool(value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

struct JSONMember {
    var key: String
    var value: JSON
}

extension JSON {
    /// `.object` from (key, value) pairs.
    static func members(_ pairs: [(String, JSON)]) -> JSON {
        .object(pairs.map { JSONMember(key: $0.0, value: $0.1) })
    }
}
