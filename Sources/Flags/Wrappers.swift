/// A set of flags: a command's, or a group a command includes. Built by `init()` with every
/// wrapper reading the command line (see `FlagContext`).
package protocol FlagGroup {
    init()
    /// Checks between flags, run once every value is read.
    func validate() throws
}

extension FlagGroup {
    package func validate() throws {}
}

/// `--name VALUE`: optional (`String?`), with a default (`Int = 8`) or repeatable (`[String] = []`).
@propertyWrapper package struct Option<Value> {
    package var wrappedValue: Value

    /// Given at most once (the last one counts); nil when not given.
    package init<T: FlagValue>(_ name: String, short: Character? = nil, help: Help) where Value == T? {
        let spec = FlagSpec(name: name, short: short, kind: .option, valueName: help.valueName ?? name, help: help.text)
        wrappedValue = Self.read(spec).flatMap { $0.last }.flatMap { FlagContext.current?.convert($0, for: spec) }
    }

    /// Given at most once, its value optional: `--name` alone is `bare`, `--name CHOICE` or
    /// `--name=CHOICE` one of `T`'s cases; nil when not given.
    package init<T: FlagValue & CaseIterable & RawRepresentable>(_ name: String, bare: T, help: Help) where Value == T?, T.RawValue == String {
        var spec = FlagSpec(name: name, kind: .option, valueName: help.valueName ?? name, help: help.text)
        (spec.bareValue, spec.choices) = (bare.rawValue, T.allCases.map(\.rawValue))
        wrappedValue = Self.read(spec).flatMap { $0.last }.flatMap { FlagContext.current?.convert($0, for: spec) }
    }

    /// Given at most once (the last one counts); `wrappedValue` when not given.
    package init(wrappedValue: Value, _ name: String, short: Character? = nil, help: Help) where Value: FlagValue {
        let spec = FlagSpec(name: name, short: short, kind: .option, valueName: help.valueName ?? name, help: help.text)
        self.wrappedValue = Self.read(spec).flatMap { $0.last }.flatMap { FlagContext.current?.convert($0, for: spec) } ?? wrappedValue
    }

    /// Repeatable: every value given, in order.
    package init<T: FlagValue>(wrappedValue: [T], _ name: String, short: Character? = nil, help: Help) where Value == [T] {
        let spec = FlagSpec(name: name, short: short, kind: .repeated, valueName: help.valueName ?? name, help: help.text)
        let given = Self.read(spec)?.compactMap { (text: String) -> T? in FlagContext.current?.convert(text, for: spec) }
        self.wrappedValue = given ?? wrappedValue
    }

    private static func read(_ spec: FlagSpec) -> [String]? { FlagContext.current?.declare(spec) }
}

/// `--name`: true when given.
@propertyWrapper package struct Flag {
    package var wrappedValue: Bool

    package init(wrappedValue: Bool = false, _ name: String, help: Help) {
        let spec = FlagSpec(name: name, kind: .flag, valueName: name, help: help.text)
        self.wrappedValue = FlagContext.current?.declare(spec) != nil ? true : wrappedValue
    }
}

/// A value given without a name: one that must be given (`String`), or all the rest (`[String] = []`).
@propertyWrapper package struct Argument<Value> {
    package var wrappedValue: Value

    package init(help: Help) where Value == String {
        var spec = FlagSpec(name: help.valueName ?? "value", kind: .positional, valueName: help.valueName ?? "value", help: help.text)
        spec.required = true
        wrappedValue = FlagContext.current?.declare(spec)?.first ?? ""
    }

    /// One that may be left out.
    package init(help: Help) where Value == String? {
        let spec = FlagSpec(name: help.valueName ?? "value", kind: .positional, valueName: help.valueName ?? "value", help: help.text)
        wrappedValue = FlagContext.current?.declare(spec)?.first
    }

    package init(wrappedValue: [String], help: Help) where Value == [String] {
        var spec = FlagSpec(name: help.valueName ?? "values", kind: .positional, valueName: help.valueName ?? "values", help: help.text)
        spec.many = true
        self.wrappedValue = FlagContext.current?.declare(spec) ?? wrappedValue
    }
}

/// Another set of flags included whole, listed under `title` in `--help`.
@propertyWrapper package struct Group<Value: FlagGroup> {
    package var wrappedValue: Value

    package init(_ title: String? = nil) {
        guard let context = FlagContext.current else {
            wrappedValue = Value()
            return
        }
        wrappedValue = context.inGroup(title) { Value() }
    }
}
