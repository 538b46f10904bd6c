/// An option value that is not acceptable; the front end says where it came from (a flag, a
/// JSON path or an HTTP field).
package struct OptionError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, with the place inside the value in front when there is one
    /// (`[1].weight: must be a whole number`).
    package var message: String
    /// Where inside the value (`[1].weight` of a list of spans), so a spec error joins it into
    /// one JSON path (`blocks[0].spans[1].weight`); empty for the value as a whole.
    package var subpath = ""
    /// The message alone, without `subpath`.
    package var reason: String

    package init(_ message: String) { (self.message, self.reason) = (message, message) }

    /// An error at `subpath` inside the value.
    package init(_ reason: String, at subpath: String) {
        (self.message, self.subpath, self.reason) = (subpath.isEmpty ? reason : "\(subpath): \(reason)", subpath, reason)
    }

    package var description: String { message }
}

/// One option, defined once: its name (the long flag, the JSON key, the HTTP field), help,
/// value name and JSON Schema type, and how a value is parsed and checked into `Target` (the
/// settings of its scope: a block's, a card's, an encoder's, a page's, a comparison's). Every
/// front end reads the same definition, so a flag, a key and a field cannot drift apart.
package struct OptionDefinition<Target>: Sendable {
    package let name: String
    package let valueName: String
    package let help: String
    /// The JSON Schema type of the value ("number", "string", ...; several with "|").
    package let schemaType: String
    /// Given several times, every value counts (a flag may repeat; in JSON, a list).
    package let repeatable: Bool
    private let parse: @Sendable (inout Target, OptionInput) throws -> Void

    package init(_ name: String, _ valueName: String, schema: String, _ help: String,
                repeatable: Bool = false, _ parse: @escaping @Sendable (inout Target, OptionInput) throws -> Void) {
        (self.name, self.valueName, self.schemaType, self.help, self.parse) = (name, valueName, schema, help, parse)
        self.repeatable = repeatable
    }

    /// Parses `input` into `target`; a refusal is an `OptionError` (the caller adds the flag,
    /// key or field).
    package func apply(_ input: OptionInput, to target: inout Target) throws {
        do {
            try parse(&target, input)
        } catch let error as ValueError {
            throw OptionError(error.requirement)
        }
    }
}

extension OptionDefinition {
    /// The same row reading into the `part` of a larger settings value (the service's settings
    /// hold the link policy and the pixel limit): one name, parse and check for both. `help`
    /// replaces the text where the larger value's default differs.
    package func within<Outer>(_ part: WritableKeyPath<Outer, Target> & Sendable, help: String? = nil) -> OptionDefinition<Outer> {
        OptionDefinition<Outer>(name, valueName, schema: schemaType, help ?? self.help, repeatable: repeatable) { outer, input in
            try self.apply(input, to: &outer[keyPath: part])
        }
    }
}

extension OptionDefinition {
    /// This row under another name (a command's flag for a card key: `render --canvas` sets the
    /// card's `size`), with its own help where the command's meaning is narrower: the same
    /// parse and checks, so the flag cannot accept what the key refuses.
    package func renamed(_ newName: String, help: String? = nil) -> OptionDefinition<Target> {
        OptionDefinition(newName, valueName, schema: schemaType, help ?? self.help, repeatable: repeatable) { target, input in
            try self.apply(input, to: &target)
        }
    }
}

extension Array {
    /// The definition named `name` in a table.
    package func named<Target>(_ name: String) -> OptionDefinition<Target>? where Element == OptionDefinition<Target> {
        first { $0.name == name }
    }
}

/// An option's value as a front end has it: a command-line string (or an HTTP field), or a
/// JSON value (where numbers, booleans and arrays may be given natively).
package enum OptionInput: Sendable {
    case text(String)
    case json(JSONValue)

    package func string() throws -> String {
        switch self {
        case let .text(text): return text
        case let .json(.string(text)): return text
        case let .json(.number(n)): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        // A JSON boolean reads as the word a command line would give.
        case let .json(.bool(b)): return b ? "true" : "false"
        case let .json(value): throw OptionError("must be a string, not \(value.typeName)")
        }
    }

    package func number() throws -> Double {
        if case let .json(.number(n)) = self { return n }
        let text = try string()
        guard let value = Double(text.trimmed), value.isFinite else { throw OptionError("'\(text)' is not a number") }
        return value
    }

    package func integer() throws -> Int {
        let value = try number()
        guard value == value.rounded(), abs(value) < 1e15 else { throw OptionError("\(Checked.describe(value)) is not a whole number") }
        return Int(value)
    }

    /// A number in `range`, refused in one wording for every option.
    package func number(in range: ClosedRange<Double>) throws -> Double {
        let value = try number()
        guard range.contains(value) else {
            throw OptionError("must be a number from \(Checked.describe(range.lowerBound)) to \(Checked.describe(range.upperBound)), got \(Checked.describe(value))")
        }
        return value
    }

    /// A random seed: a whole number from 0 below 10^15 (what a JSON number holds exactly).
    package func seed() throws -> UInt64 { UInt64(try integer(in: 0...999_999_999_999_999)) }

    /// A whole number in `range`.
    package func integer(in range: ClosedRange<Int>) throws -> Int {
        let refuse = { (got: String) in OptionError("must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(got)") }
        // A whole number past what an Int holds exactly is out of range, not "not whole".
        if let value = try? number(), value.isFinite, value == value.rounded(), abs(value) >= 1e15 { throw refuse(Checked.describe(value)) }
        let value = try integer()
        guard range.contains(value) else { throw refuse("\(value)") }
        return value
    }

    /// A command line's (or a form field's) words true/false, yes/no, 1/0, on/off; in JSON
    /// only a boolean, so `"yes"` in a spec is refused rather than guessed.
    package func bool() throws -> Bool {
        switch self {
        case let .json(.bool(b)): return b
        case let .json(value): throw OptionError("must be true or false (a JSON boolean), not \(value.typeName)")
        case .text: break
        }
        switch try string().lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        case let other: throw OptionError("'\(other)' is not true or false")
        }
    }

    /// A list: a JSON array, or comma-separated text.
    package func list() throws -> [OptionInput] {
        if case let .json(.array(items)) = self { return items.map { .json($0) } }
        return try string().split(separator: ",", omittingEmptySubsequences: false).map { .text(String($0)) }
    }

    package func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
        let text = try string()
        guard let value = T(rawValue: text.lowercased()) else {
            throw OptionError("'\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}
