/// `--help` pages, from the same declarations the parser reads.
package enum HelpText {
    /// Labels up to this wide share their line with the help; longer ones stand alone above it.
    static let labelWidth = 24

    package static func command(_ command: any Command.Type, program: String, columns: Int) -> String {
        page(command.info, specs: command.flagSpecs, program: program, columns: columns)
    }

    /// A command's page from its description and flags.
    package static func page(_ info: CommandInfo, specs: [FlagSpec], program: String, columns: Int) -> String {
        let positionals = specs.filter { $0.kind == .positional }
        var usage = "USAGE: \(program) \(info.name) [<options>]"
        for spec in positionals { usage += spec.required ? " \(spec.label)" : " [\(spec.label)\(spec.many ? " ..." : "")]" }
        var out = overview(info.abstract, info.discussion, columns: columns) + usage + "\n"
        if !positionals.isEmpty {
            out += "\nARGUMENTS:\n" + positionals.map { row($0.label, $0.help, columns: columns) }.joined()
        }
        // Ungrouped flags first, then each group in the order it was declared.
        var groups: [String?] = [nil]
        for spec in specs where spec.kind != .positional && !groups.contains(spec.group) { groups.append(spec.group) }
        for group in groups {
            let rows = specs.filter { $0.kind != .positional && $0.group == group }
            guard !rows.isEmpty else { continue }
            out += "\n\((group ?? "Options").uppercased()):\n" + rows.map { row($0.label, $0.help, columns: columns) }.joined()
        }
        if !info.examples.isEmpty { out += "\nEXAMPLES:\n" + info.examples.map { "  $ \($0)\n" }.joined() }
        return out
    }

    package static func root(_ tree: CommandTree, columns: Int) -> String {
        var out = overview(tree.abstract, tree.discussion, columns: columns)
        out += "USAGE: \(tree.name) <subcommand>\n\nOPTIONS:\n"
        out += row("--version", "Show the version.", columns: columns) + row(FlagSpec.help.label, FlagSpec.help.help, columns: columns)
        out += "\nSUBCOMMANDS:\n"
        for command in tree.commands {
            let isDefault = tree.defaultCommand.map { ObjectIdentifier($0) == ObjectIdentifier(command) } ?? false
            out += row(command.info.name + (isDefault ? " (default)" : ""), command.info.abstract, columns: columns)
        }
        return out + "\n  See '\(tree.name) help <subcommand>' for detailed help.\n"
    }

    private static func overview(_ abstract: String, _ discussion: String, columns: Int) -> String {
        var out = wrap("OVERVIEW: " + abstract, columns: columns, indent: 0).joined(separator: "\n") + "\n\n"
        if !discussion.isEmpty { out += wrap(discussion, columns: columns, indent: 0).joined(separator: "\n") + "\n\n" }
        return out
    }

    /// `  --label <value>         help, wrapped under itself`.
    static func row(_ label: String, _ help: String, columns: Int) -> String {
        let indent = labelWidth + 2
        var lines = wrap(help, columns: columns, indent: indent)
        let head = "  " + label
        if head.count < indent, let first = lines.first {
            lines[0] = head + String(repeating: " ", count: indent - head.count) + first.dropFirst(indent)
        } else {
            lines.insert(head, at: 0)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Words filled into lines of at most `columns`, each indented by `indent`.
    static func wrap(_ text: String, columns: Int, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = pad
            for word in paragraph.split(separator: " ") {
                if line.count > indent, line.count + 1 + word.count > columns {
                    lines.append(line)
                    line = pad
                }
                line += (line.count > indent ? " " : "") + word
            }
            lines.append(line)
        }
        return lines
    }
}

import Glibc

/// The width help is wrapped to: the terminal's, else $COLUMNS, else 80.
package func terminalColumns() -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
    return 80
}
