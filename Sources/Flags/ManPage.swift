/// A roff man page (section 1) for a command tree, from the same declarations as `--help`.
package enum ManPage {
    /// One extra section: a heading and its paragraphs (plain text).
    package struct Section: Sendable {
        package var heading: String
        package var items: [(term: String, text: String)]
        package init(_ heading: String, _ items: [(term: String, text: String)]) { (self.heading, self.items) = (heading, items) }
    }

    /// The page: NAME, SYNOPSIS, DESCRIPTION, every command with its flags (`override` for
    /// commands that pass theirs on), then `extra` sections (ENVIRONMENT, FILES, ...).
    package static func page(_ tree: CommandTree, override: [String: [FlagSpec]] = [:], extra: [Section] = []) -> String {
        let title = tree.name.uppercased()
        var out = ".TH \(title) 1 \"\" \"\(escape(tree.name)) \(escape(tree.version))\" \"User Commands\"\n"
        out += ".SH NAME\n\(escape(tree.name)) \\- \(escape(tree.abstract))\n"
        out += ".SH SYNOPSIS\n.B \(escape(tree.name))\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n"
        out += ".SH DESCRIPTION\n\(escape(tree.abstract))\n"
        if !tree.discussion.isEmpty { out += ".PP\n\(escape(tree.discussion))\n" }
        if let command = tree.defaultCommand {
            out += ".PP\nWithout a command, \\fB\(escape(tree.name)) \(escape(command.info.name))\\fR runs.\n"
        }
        out += ".SH COMMANDS\n"
        for command in tree.commands {
            let info = command.info
            out += ".SS \"\(escape(tree.name)) \(escape(info.name))\"\n\(escape(info.abstract))\n"
            if !info.discussion.isEmpty { out += ".PP\n\(escape(info.discussion))\n" }
            let specs = override[info.name] ?? command.flagSpecs
            for spec in specs {
                out += ".TP\n\(label(spec))\n\(escape(spec.help))\n"
            }
            if !info.examples.isEmpty {
                out += ".PP\nExamples:\n" + info.examples.map { ".RS\n.nf\n\(escape($0))\n.fi\n.RE\n" }.joined()
            }
        }
        for section in extra {
            out += ".SH \(escape(section.heading.uppercased()))\n"
            for item in section.items { out += ".TP\n.B \(escape(item.term))\n\(escape(item.text))\n" }
        }
        return out
    }

    /// `--size px`, `-o, --output path`, `spec.json` in roff fonts.
    private static func label(_ spec: FlagSpec) -> String {
        switch spec.kind {
        case .positional: return "\\fI\(escape(spec.valueName))\\fR"
        case .flag: return (spec.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + "\\fB\\-\\-\(escape(spec.name))\\fR"
        case .option, .repeated:
            return (spec.short.map { "\\fB\\-\($0)\\fR, " } ?? "") + "\\fB\\-\\-\(escape(spec.name))\\fR \\fI\(escape(spec.valueName))\\fR"
        }
    }

    /// Text safe in roff: backslashes and hyphens escaped, characters past ASCII as `\[uXXXX]`
    /// (troff reads bytes, not UTF-8), no line starting with a control character ('.' or an
    /// apostrophe).
    static func escape(_ text: String) -> String {
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": body += "\\e"
            case "-": body += "\\-"
            // groff's own names, which it also draws in ASCII (man in a C locale warned of
            // \[u2026], which has no ASCII form).
            case "\u{2026}": body += "..."
            case "\u{2014}": body += "\\(em"
            case "\u{2013}": body += "\\(en"
            case "\u{201C}": body += "\\(lq"
            case "\u{201D}": body += "\\(rq"
            case "\u{2018}": body += "\\(oq"
            case "\u{2019}": body += "\\(cq"
            case "\u{00D7}": body += "\\(mu"
            case "\u{2192}": body += "\\(->"
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                body += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: body.unicodeScalars.append(scalar)
            }
        }
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
