import Support
/// `{{name}}` in the string values of a parsed spec, filled once: a value that itself holds
/// `{{x}}`, quotes or braces stays literal, and the JSON around it cannot break.
public enum Variables {
    public static func substitute(_ json: JSONValue, _ values: [String: String], path: String = "") throws -> JSONValue {
        switch json {
        case let .string(text): return .string(try fill(text, values, path: path))
        case let .array(items): return .array(try items.enumerated().map { try substitute($1, values, path: join(path, $0)) })
        case let .object(members):
            return .object(try members.map { ($0.key, try substitute($0.value, values, path: join(path, $0.key))) })
        default: return json
        }
    }

    public static func fill(_ text: String, _ values: [String: String], path: String) throws -> String {
        guard text.contains("{{") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstRange(of: "}}") else { out += rest[open.lowerBound...]; return out }
            let name = after[..<close.lowerBound].trimmed
            guard let value = values[name] else {
                throw CardError(path, "variable {{\(name)}} has no value", missingVariable: name)
            }
            out += value
            rest = after[close.upperBound...]
        }
        return out + rest
    }
}
