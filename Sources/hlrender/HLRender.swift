import ArgumentParser

struct HLRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hlrender",
        abstract: "Render decorated text, cards and batches of cards to PNG, JPEG, WebP or PDF.",
        discussion: """
            Exit status: 0 success; 1 images differ (compare, --expect); 2 image sizes differ; \
            3 bad input or failure (one line on stderr names it).
            """,
        version: "0.1.0",
        subcommands: [Render.self, StepsCommand.self, CardCommand.self, BatchCommand.self, CompareCommand.self, ServeCommand.self, OptionsCommand.self],
        defaultSubcommand: Render.self)
}

extension HLRender {
    /// The command the arguments name, parsed. ArgumentParser's walk from the root builds the
    /// named (or default) subcommand's whole argument set three more times to see whether it
    /// passes its arguments through (only `serve` does): 1.3 ms of a 19 ms render. So the
    /// subcommand is parsed on its own first; anything that does not parse cleanly there
    /// (help, version, completion scripts, errors) goes through the whole tree, for exactly
    /// its usual output.
    static func parseCommand(_ arguments: [String]) throws -> ParsableCommand {
        let named = arguments.first.flatMap { first in configuration.subcommands.first { $0._commandName == first } }
        let direct = named.map { ($0, Array(arguments.dropFirst())) } ?? (configuration.defaultSubcommand.map { ($0, arguments) })
        let asksForHelp = arguments.contains { ["help", "-h", "--help", "--version"].contains($0) }
        if let (command, rest) = direct, !asksForHelp, let parsed = try? command.parseAsRoot(rest) {
            return parsed
        }
        return try parseAsRoot(arguments)
    }
}
