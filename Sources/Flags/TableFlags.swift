import Support

/// Flags whose name, value and help are an option table's (`OptionDefinition`): declared by
/// naming the options, applied through the same definitions the card keys and service fields
/// use, so a flag cannot say or accept anything its key does not.

extension OptionDefinition {
    /// This option as a flag: a boolean is a switch, a repeatable option collects its values,
    /// any other takes one value (the last wins).
    package var flagSpec: FlagSpec {
        FlagSpec(name: name, kind: schemaType == "boolean" ? .flag : repeatable ? .repeated : .option, valueName: valueName, help: help)
    }
}

extension Array {
    /// The named options of this table as flags, in the order named.
    package func flagSpecs<T>(_ names: [String]) -> [FlagSpec] where Element == OptionDefinition<T> {
        names.map { name in
            guard let option = named(name) else { preconditionFailure("no option '\(name)' in the table") }
            return option.flagSpec
        }
    }

    /// Every given flag through its definition, in order (the last of a repeated one wins,
    /// unless the option collects them); a refusal names the flag.
    package func apply<T>(_ given: GivenFlags, to target: inout T) throws(FlagError) where Element == OptionDefinition<T> {
        for (name, value) in given.pairs {
            do {
                try named(name)!.apply(.text(value), to: &target)
            } catch let error as OptionError {
                throw FlagError("--\(name): \(error.message)")
            } catch {
                throw FlagError("--\(name): \(error)")
            }
        }
    }
}

/// What a command line gave for a list of flags: each value with its flag's name, in the
/// list's order, a switch as "true".
package struct GivenFlags: Sendable {
    package var pairs: [(name: String, value: String)]

    package init(_ pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// The flags given, of those whose value is not nil (flags read one by one elsewhere).
    package init(_ optional: [(String, String?)]) {
        pairs = optional.compactMap { name, value in value.map { (name, $0) } }
    }

    package func contains(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    /// The flags given, each once, in the list's order.
    package var names: [String] {
        var seen = Set<String>()
        return pairs.map(\.name).filter { seen.insert($0).inserted }
    }

    package var isEmpty: Bool { pairs.isEmpty }
}

/// Flags declared from specs that are data (an option table's, `flagSpecs`): what was given.
@propertyWrapper package struct FlagList {
    package var wrappedValue: GivenFlags

    package init(_ specs: [FlagSpec]) {
        var given: [(name: String, value: String)] = []
        for spec in specs {
            guard let values = FlagContext.current?.declare(spec) else { continue }
            given += values.map { (spec.name, spec.kind == .flag ? "true" : $0) }
        }
        wrappedValue = GivenFlags(given)
    }
}
