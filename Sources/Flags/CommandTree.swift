/// A program of several commands: picks the command the first argument names (or the default
/// one), and answers `--help`, `help COMMAND` and `--version` itself.
package struct CommandTree: Sendable {
    package let name: String
    package let abstract: String
    package let discussion: String
    package let version: String
    /// More lines for `--version` (the libraries a build renders with), asked for only then.
    package let versionDetails: @Sendable () -> String
    package let commands: [any Command.Type]
    package let defaultCommand: (any Command.Type)?

    package init(name: String, abstract: String, discussion: String = "", version: String,
                versionDetails: @escaping @Sendable () -> String = { "" },
                commands: [any Command.Type], defaultCommand: (any Command.Type)? = nil) {
        self.versionDetails = versionDetails
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.commands = commands
        self.defaultCommand = defaultCommand
    }

    /// What a command line asks for: a command to run, or text to print (help, version).
    package enum Outcome {
        case run(any Command)
        case print(String)
    }

    /// `columns`, the width help is wrapped to, is asked for only when help is printed.
    package func parse(_ arguments: [String], columns: @autoclosure () -> Int = 80) throws -> Outcome {
        let first = arguments.first
        if first == "--version", arguments.count == 1 { return .print("\(name) \(version)\n" + versionDetails()) }
        // Nothing asked: the usage, not the default command's complaint about a missing flag.
        if first == "--help" || first == "-h" || arguments.isEmpty { return .print(HelpText.root(self, columns: columns())) }
        if first == "help" {
            guard let wanted = arguments.dropFirst().first else { return .print(HelpText.root(self, columns: columns())) }
            guard let command = command(named: wanted) else { throw FlagError("Unknown subcommand '\(wanted)'") }
            return .print(help(for: command, columns: columns()))
        }
        if let first, let command = command(named: first) { return try parse(command, Array(arguments.dropFirst()), columns: columns) }
        guard let defaultCommand else { throw FlagError(first.map { "Unknown subcommand '\($0)'" } ?? "no subcommand given") }
        return try parse(defaultCommand, arguments, columns: columns)
    }

    package func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.info.name == name }
    }

    /// A command's `--help`.
    package func help(for command: any Command.Type, columns: Int = 80) -> String {
        HelpText.command(command, program: name, columns: columns)
    }

    private func parse(_ command: any Command.Type, _ arguments: [String], columns: () -> Int) throws -> Outcome {
        do {
            return .run(try command.parseCommand(arguments))
        } catch is HelpRequest {
            return .print(help(for: command, columns: columns()))
        }
    }
}
