import Render
import Typeset
import Support

/// An option's value as a front end has it: a command-line string, or a JSON value from a card
/// spec (where numbers, booleans and arrays may be given natively).
public enum OptionInput: Sendable {
    case text(String)
    case json(JSONValue)

    public func string() throws -> String {
        switch self {
        case let .text(text): return text
        case let .json(.string(text)): return text
        case let .json(.number(n)): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case let .json(value): throw OptionError("must be a string, not \(value.typeName)")
        }
    }

    public func number() throws -> Double {
        if case let .json(.number(n)) = self { return n }
        let text = try string()
        guard let value = Double(text.trimmed), value.isFinite else { throw OptionError("'\(text)' is not a number") }
        return value
    }

    public func integer() throws -> Int {
        let value = try number()
        guard value == value.rounded(), abs(value) < 1e15 else { throw OptionError("\(value) is not a whole number") }
        return Int(value)
    }

    public func bool() throws -> Bool {
        if case let .json(.bool(b)) = self { return b }
        switch try string().lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        case let other: throw OptionError("'\(other)' is not true or false")
        }
    }

    /// A list: a JSON array, or comma-separated text.
    public func list() throws -> [OptionInput] {
        if case let .json(.array(items)) = self { return items.map { .json($0) } }
        return try string().split(separator: ",", omittingEmptySubsequences: false).map { .text(String($0)) }
    }

    public func color() throws -> Color {
        let text = try string()
        guard let color = Color(parsing: text) else {
            throw OptionError("'\(text)' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA, a CSS name or transparent)")
        }
        return color
    }

    public func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
        let text = try string()
        guard let value = T(rawValue: text.lowercased()) else {
            throw OptionError("'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// A length: px as a number or `Npx`, or `Nem` (a multiple of the font size).
    public func length() throws -> Length {
        if case let .json(.number(n)) = self { return .px(n) }
        let text = try string().trimmed.lowercased()
        let isEm = text.hasSuffix("em")
        let digits = isEm || text.hasSuffix("px") ? String(text.dropLast(2)) : text
        guard let value = Double(digits.trimmed), value.isFinite else { throw OptionError("'\(text)' is not a length (px, or em like 0.3em)") }
        return isEm ? .em(value) : .px(value)
    }
}

/// A length given in px or in em (resolved against the font size when it is known).
public enum Length: Equatable, Sendable {
    case px(Double)
    case em(Double)

    public func resolved(fontSize: Double) -> Double {
        switch self {
        case let .px(v): return v
        case let .em(v): return v * fontSize
        }
    }

    var isNegative: Bool {
        switch self {
        case let .px(v), let .em(v): return v < 0
        }
    }
}
