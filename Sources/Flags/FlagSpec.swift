/// Command-line flags declared once, where they are stored: each property wrapper names its
/// flag, its value and its help, and fills itself from the parsed arguments while the command
/// is built. No reflection: a command's flags are known by building it once, its values by
/// building it again (a few microseconds, against milliseconds of runtime metadata lookups
/// that a Mirror-based parser spends on every start).

/// What a flag says in `--help`: its sentence and the name of its value.
package struct Help: ExpressibleByStringLiteral, Sendable {
    package var text: String
    package var valueName: String?

    package init(_ text: String, valueName: String? = nil) {
        self.text = text
        self.valueName = valueName
    }

    package init(stringLiteral text: String) { self.init(text) }
}

/// One flag or positional argument of a command, as declared.
package struct FlagSpec: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// `--name`, no value.
        case flag
        /// `--name VALUE` (or `--name=VALUE`), the last one given wins.
        case option
        /// `--name VALUE`, repeatable: every value is kept.
        case repeated
        /// A value given without a name, in order.
        case positional
    }

    /// The long name without dashes (for a positional, its value name).
    package var name: String
    package var short: Character?
    package var kind: Kind
    package var valueName: String
    package var help: String
    /// The help section it is listed under (nil: OPTIONS).
    package var group: String?
    /// A positional that must be given.
    package var required = false
    /// A positional that takes all the values left.
    package var many = false
    /// An option whose value may be left out (`--update` alone): the value it then takes. Its
    /// value after a space is taken only when it is one of `choices` (`--update changed`), so
    /// `--update A B` keeps A and B positional; `--update=VALUE` always works.
    package var bareValue: String?
    package var choices: [String]?

    package init(name: String, short: Character? = nil, kind: Kind, valueName: String, help: String, group: String? = nil) {
        (self.name, self.short, self.kind, self.valueName, self.help, self.group) = (name, short, kind, valueName, help, group)
    }

    /// The name as typed, for messages: `--size <px>`, `--quiet`, `<spec.json>`.
    package var typed: String {
        switch kind {
        case .positional: "<\(valueName)>"
        case .flag: "--\(name)"
        case .option, .repeated: bareValue == nil ? "--\(name) <\(valueName)>" : "--\(name) [<\(valueName)>]"
        }
    }

    /// How `--help` lists it: the short name too, `-o, --output <path>`.
    package var label: String { short.map { "-\($0), " + typed } ?? typed }
}

/// A value a flag can hold, read from its text.
package protocol FlagValue {
    init?(flagText: String)
    /// What the text must be, for the error when it is not: "a whole number".
    static var expected: String { get }
}

extension String: FlagValue {
    package init?(flagText: String) { self = flagText }
    package static var expected: String { "text" }
}

extension Int: FlagValue {
    package init?(flagText: String) { self.init(flagText) }
    package static var expected: String { "a whole number" }
}

extension UInt64: FlagValue {
    package init?(flagText: String) { self.init(flagText) }
    package static var expected: String { "a whole number from 0 to \(UInt64.max)" }
}

extension Double: FlagValue {
    package init?(flagText: String) {
        guard let value = Double(flagText), value.isFinite else { return nil }
        self = value
    }
    package static var expected: String { "a finite number" }
}

/// Enumerations whose raw values are the words accepted.
extension FlagValue where Self: RawRepresentable, Self.RawValue == String, Self: CaseIterable {
    package init?(flagText: String) { self.init(rawValue: flagText) }
    package static var expected: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A command line that cannot be taken: one line naming what is wrong.
package struct FlagError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Ends a run with this status and nothing more on stderr (the command said what it had to).
package struct ExitCode: Error, Sendable {
    package let rawValue: Int32
    package init(_ rawValue: Int32) { self.rawValue = rawValue }
}
