extension JSONValue {
    /// `.object` from (key, value) pairs.
    package static func members(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(pairs.map { (key: $0.0, value: $0.1) })
    }

    /// An object's (key, value) pairs; empty for any other value.
    package var objectMembers: [(String, JSONValue)] {
        if case let .object(members) = self { return members.map { ($0.key, $0.value) } }
        return []
    }

    /// Indented JSON, members in their order.
    package func serialized(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case let .object(members):
            if members.isEmpty { return "{}" }
            let body = members.map { "\(inner)\(JSONValue.quote($0.key)): \($0.value.serialized(indent: inner))" }
            return "{\n" + body.joined(separator: ",\n") + "\n\(indent)}"
        case let .array(items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + $0.serialized(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case let .string(text): return JSONValue.quote(text)
        case let .number(value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return value.isFinite ? String(value) : "null"
        case let .bool(value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    /// A JSON string literal (control characters escaped).
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
