import Markdown
import Markup
import Support
/// `{{name}}` in the string values of a parsed spec, filled once: a value that itself holds
/// `{{x}}`, quotes or braces stays literal, and the JSON around it cannot break.
///
/// The one rule for markup: a value is always text where it lands. Into a string that is read
/// as markup (every `markup` key; `steps` where `steps-markup` is on for that block, set on
/// the block or inherited from the card or a stack around it) it goes escaped, so a CSV cell
/// or a query parameter can never open a span or a link. `steps-markup` must be a JSON
/// boolean: anything else is refused here, before a value could slip past it. Into a
/// `markdown` key it goes escaped as CommonMark text (`Markdown.escape`).
package enum Variables {
    package static func substitute(_ json: JSONValue, _ values: [String: String], path: String = "") throws -> JSONValue {
        do {
            return try substitute(json, values, escaped: [.markup: values.mapValues(Markup.escape), .markdown: values.mapValues(Markdown.escape)],
                                  path: path, into: nil, stepsMarkup: false)
        } catch let error as CardError where error.missingVariable != nil {
            // Every missing one named at once (the path is the first one's).
            let missing = names(in: json).filter { values[$0] == nil }.sorted()
            guard missing.count > 1 else { throw error }
            throw CardError(error.path, "variables \(missing.map { "{{\($0)}}" }.joined(separator: ", ")) have no value", missingVariables: missing)
        }
    }

    /// The languages a string value may be read in.
    private enum Language { case markup, markdown }

    private static func substitute(_ json: JSONValue, _ values: [String: String], escaped: [Language: [String: String]], path: String,
                                   into language: Language?, stepsMarkup inherited: Bool) throws -> JSONValue {
        switch json {
        case let .string(text): return .string(try fill(text, language.map { escaped[$0]! } ?? values, path: path))
        case let .array(items):
            return .array(try items.enumerated().map {
                try substitute($1, values, escaped: escaped, path: join(path, $0), into: language, stepsMarkup: inherited)
            })
        case let .object(members):
            var stepsMarkup = inherited
            if let flag = json["steps-markup"] {
                guard case let .bool(on) = flag else {
                    throw CardError(join(path, "steps-markup"), "must be true or false (a JSON boolean), not \(flag.typeName)")
                }
                stepsMarkup = on
            }
            return .object(try members.map {
                let language: Language? = $0.key == "markup" || (stepsMarkup && $0.key == "steps") ? .markup
                    : $0.key == "markdown" ? .markdown : nil
                return ($0.key, try substitute($0.value, values, escaped: escaped, path: join(path, $0.key), into: language,
                                               stepsMarkup: stepsMarkup))
            })
        default: return json
        }
    }

    /// Every `{{name}}` the spec's strings ask for (an unused `--var` is worth a warning).
    package static func names(in json: JSONValue) -> Set<String> {
        switch json {
        case let .string(text):
            var names = Set<String>()
            var rest = Substring(text)
            while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
                names.insert(String(rest[open.upperBound..<close.lowerBound].trimmed))
                rest = rest[close.upperBound...]
            }
            return names
        case let .array(items): return items.reduce(into: Set()) { $0.formUnion(names(in: $1)) }
        case let .object(members): return members.reduce(into: Set()) { $0.formUnion(names(in: $1.value)) }
        default: return []
        }
    }

    package static func fill(_ text: String, _ values: [String: String], path: String) throws -> String {
        // Most texts have no variable: a scan of the contiguous bytes, where `String.contains`
        // searched by Character (a tenth of an unchanged golden suite's run).
        var source = text
        guard source.withUTF8({ bytes in bytes.indices.dropFirst().contains { bytes[$0] == 0x7B && bytes[$0 - 1] == 0x7B } }) else { return text }
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
