import Support

/// A command: its flags (a `FlagGroup`), what it says of itself, and what it does.
package protocol Command: FlagGroup, SendableMetatype {
    static var info: CommandInfo { get }
    func run() throws
}

/// A command's name and help.
package struct CommandInfo: Sendable {
    package var name: String
    package var abstract: String
    package var discussion: String
    /// Takes its arguments as they are, unparsed (a command that hands them to another program).
    package var passesArguments: Bool
    /// Command lines shown under EXAMPLES (run from the repository: they name its samples).
    package var examples: [String]

    package init(name: String, abstract: String, discussion: String = "", passesArguments: Bool = false, examples: [String] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.passesArguments = passesArguments
        self.examples = examples
    }
}

extension FlagGroup {
    /// The flags, as declared.
    package static var declaredFlags: [FlagSpec] {
        FlagContext.build(parsed: nil) { Self() }.1.specs
    }

    /// The flags, `--help` included (for help pages and references).
    package static var flagSpecs: [FlagSpec] { declaredFlags + [FlagSpec.help] }

    /// Built from `arguments`, every value and every group checked; `--help` anywhere before
    /// `--` is a `HelpRequest`.
    package static func parse(_ arguments: [String]) throws -> Self {
        if Tokenizer.asksForHelp(arguments) { throw HelpRequest() }
        let parsed = try Tokenizer(specs: flagSpecs).split(arguments)
        let (group, context) = FlagContext.build(parsed: parsed) { Self() }
        if let error = context.firstError { throw error }
        if let extra = context.unclaimedPositionals.first { throw FlagError("Unexpected argument '\(extra)'") }
        for validation in context.validations { try validation() }
        try group.validate()
        return group
    }
}

extension Command {
    /// As `parse`; a command that passes its arguments on gets all of them as they are.
    package static func parseCommand(_ arguments: [String]) throws -> Self {
        guard info.passesArguments else { return try parse(arguments) }
        return FlagContext.build(parsed: ParsedFlags(positionals: arguments)) { Self() }.0
    }
}

extension FlagSpec {
    package static let help = FlagSpec(name: "help", short: "h", kind: .flag, valueName: "help", help: "Show help information.")
}

/// `--help` was asked for: the caller prints the command's help and exits 0.
package struct HelpRequest: Error {}

/// Splits a command line by the command's flags: `--name VALUE`, `--name=VALUE`, `-o VALUE`.
/// A value after a space may start with `-` (`--letter-spacing -2`, `--text "-hi"`) unless it is
/// one of the command's own flags or `--`; after `--` everything is positional. An unknown flag
/// gets the closest known one as a suggestion.
struct Tokenizer {
    let specs: [FlagSpec]

    func split(_ arguments: [String]) throws -> ParsedFlags {
        var parsed = ParsedFlags()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                parsed.positionals += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                parsed.positionals.append(argument)
                continue
            }
            let (name, inline) = Self.nameAndValue(argument)
            guard let spec = lookup(name) else { throw unknown(name) }
            if spec.name == "help" { throw HelpRequest() }
            switch spec.kind {
            case .flag:
                if inline != nil { throw FlagError("'\(name)' takes no value") }
                parsed.values[spec.name, default: []].append("")
            case .option, .repeated:
                if let inline {
                    parsed.values[spec.name, default: []].append(inline)
                } else if index < arguments.count, !isFlag(arguments[index]), spec.choices?.contains(arguments[index]) ?? true {
                    parsed.values[spec.name, default: []].append(arguments[index])
                    index += 1
                } else if let bare = spec.bareValue {
                    parsed.values[spec.name, default: []].append(bare)
                } else {
                    throw FlagError("Missing value for '\(spec.typed)'")
                }
            case .positional:
                throw unknown(name)
            }
        }
        return parsed
    }

    private func lookup(_ name: String) -> FlagSpec? {
        if name.hasPrefix("--") {
            let long = name.dropFirst(2)
            return specs.first { $0.kind != .positional && $0.name == long }
        }
        guard name.count == 2, let letter = name.last else { return nil }
        return specs.first { $0.short == letter }
    }

    /// Whether `argument` is one of this command's flags (or `--`): then it is not a value.
    private func isFlag(_ argument: String) -> Bool {
        argument == "--" || (Self.looksLikeFlag(argument) && lookup(Self.nameAndValue(argument).0).map { $0.kind != .positional } == true)
    }

    private func unknown(_ name: String) -> FlagError {
        let known = specs.filter { $0.kind != .positional }.map(\.name)
        let hint = name.hasPrefix("--") ? suggestion(for: String(name.dropFirst(2)), among: known).map { "; did you mean '--\($0)'?" } : nil
        return FlagError("Unknown option '\(name)'\(hint ?? "")")
    }

    /// `--name=value` split at the first `=`.
    static func nameAndValue(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static func looksLikeFlag(_ argument: String) -> Bool { argument.count > 1 && argument.hasPrefix("-") }

    /// Whether `--help` or `-h` comes before `--`.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "--help" || argument == "-h" { return true }
        }
        return false
    }
}
