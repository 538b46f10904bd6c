import Markup
import Support
/// `{{name}}` in the string values of a parsed spec, filled once: a value that itself holds
/// `{{x}}`, quotes or braces stays literal, and the JSON around it cannot break. Into markup
/// (a `markup` key, or the steps of a block with `steps-markup`) a value goes escaped, so a CSV
/// cell can never open or close a span.
public enum Variables {
    public static func substitute(_ json: JSONValue, _ values: [String: String], path: String = "", markup: Bool = false) throws -> JSONValue {
        switch json {
        case let .string(text): return .string(try fill(text, markup ? values.mapValues(Markup.escape) : values, path: path))
        case let .array(items):
            return .array(try items.enumerated().map { try substitute($1, values, path: join(path, $0), markup: markup) })
        case let .object(members):
            let marked = json["steps-markup"] == .bool(true)
            return .object(try members.map {
                ($0.key, try substitute($0.value, values, path: join(path, $0.key), markup: $0.key == "markup" || (marked && $0.key == "steps")))
            })
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
