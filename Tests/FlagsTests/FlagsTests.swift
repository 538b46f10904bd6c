@testable import Flags
import Support
import Testing

/// A command with one flag of every kind, in two groups.
private struct Sample: Command {
    static let info = CommandInfo(name: "sample", abstract: "A sample command.", discussion: "It does nothing.")
    enum Shape: String, CaseIterable, FlagValue { case round, square }

    @Argument(help: Help("The input.", valueName: "in.txt")) var input: String
    @Argument(help: Help("More inputs.", valueName: "more")) var more: [String] = []
    @Option("size", help: Help("Size in px.", valueName: "px")) var size: Double?
    @Option("count", help: "How many.") var count: Int = 3
    @Option("tag", short: "t", help: Help("A tag (repeatable).", valueName: "tag")) var tags: [String] = []
    @Flag("loud", help: "Shout.") var loud = false
    @Group("Looks") var looks: Looks

    func run() throws {}
}

private struct Looks: FlagGroup {
    @Option("shape", help: "round or square.") var shape: Sample.Shape?
    @Group var inner: Inner

    func validate() throws {
        if shape == .square && inner.radius != nil { throw FlagError("--radius needs a round shape") }
    }
}

private struct Inner: FlagGroup {
    @Option("radius", help: "Corner radius.") var radius: String?
}

@Suite struct FlagParsingTests {
    @Test func readsEveryKindOfFlag() throws {
        let command = try Sample.parse(["a.txt", "--size", "12.5", "-t", "x", "--tag=y", "--loud", "b", "--count=7",
                                        "--shape", "round", "--radius", "4", "--", "--not-a-flag"])
        #expect(command.input == "a.txt" && command.more == ["b", "--not-a-flag"])
        #expect(command.size == 12.5 && command.count == 7 && command.tags == ["x", "y"] && command.loud)
        #expect(command.looks.shape == .round && command.looks.inner.radius == "4")
    }

    @Test func defaultsWhenNotGivenAndTheLastValueWins() throws {
        let command = try Sample.parse(["a", "--size", "1", "--size", "2"])
        #expect(command.size == 2 && command.count == 3 && command.tags == [] && !command.loud && command.looks.shape == nil)
        // A value may be '-' (standard input), a negative number or text starting with '-',
        // but never another of the command's flags.
        #expect(try Sample.parse(["a", "--tag", "-"]).tags == ["-"])
        #expect(try Sample.parse(["a", "--size", "-5"]).size == -5)
        #expect(try Sample.parse(["a", "--tag", "-hi", "--tag", "--x"]).tags == ["-hi", "--x"])
    }

    @Test(arguments: [
        (["a", "--bogus"], "Unknown option '--bogus'"),
        (["a", "-x"], "Unknown option '-x'"),
        (["a", "--size"], "Missing value for '--size <px>'"),
        (["a", "--size", "--count", "3"], "Missing value for '--size <px>'"),
        (["a", "--sise", "3"], "Unknown option '--sise'; did you mean '--size'?"),
        (["a", "--size", "big"], "--size: 'big' is not a finite number"),
        (["a", "--count", "2.5"], "--count: '2.5' is not a whole number"),
        (["a", "--shape", "oval"], "--shape: 'oval' is not one of round, square"),
        (["a", "--loud=yes"], "'--loud' takes no value"),
        ([], "Missing expected argument '<in.txt>'"),
        (["a", "--shape", "square", "--radius", "2"], "--radius needs a round shape"),
    ])
    func refusesWithOneLine(arguments: [String], message: String) throws {
        #expect(throws: FlagError.self) { try Sample.parse(arguments) }
        do {
            _ = try Sample.parse(arguments)
        } catch let error as FlagError {
            #expect(error.description == message)
        }
    }

    @Test func helpAnywhereBeforeTheEndOfFlags() throws {
        #expect(throws: HelpRequest.self) { try Sample.parse(["a", "--bogus", "-h"]) }
        #expect(throws: HelpRequest.self) { try Sample.parse(["--help"]) }
        #expect(try Sample.parse(["a", "--", "--help"]).more == ["--help"])
    }

    @Test func declarationsKeepTheirGroupsAndOrder() {
        let specs = Sample.flagSpecs
        #expect(specs.map(\.name) == ["in.txt", "more", "size", "count", "tag", "loud", "shape", "radius", "help"])
        #expect(specs.first { $0.name == "radius" }?.group == "Looks")  // an untitled group stays under its parent's
        #expect(specs.first { $0.name == "tag" }?.label == "-t, --tag <tag>")
    }
}

@Suite struct HelpTextTests {
    @Test func commandPage() {
        let tree = CommandTree(name: "tool", abstract: "A tool.", version: "1.2", commands: [Sample.self], defaultCommand: Sample.self)
        let page = tree.help(for: Sample.self, columns: 60)
        #expect(page == """
            OVERVIEW: A sample command.

            It does nothing.

            USAGE: tool sample [<options>] <in.txt> [<more> ...]

            ARGUMENTS:
              <in.txt>                The input.
              <more>                  More inputs.

            OPTIONS:
              --size <px>             Size in px.
              --count <count>         How many.
              -t, --tag <tag>         A tag (repeatable).
              --loud                  Shout.
              -h, --help              Show help information.

            LOOKS:
              --shape <shape>         round or square.
              --radius <radius>       Corner radius.

            """)
    }

    @Test func longLabelsStandAloneAndHelpWraps() {
        let row = HelpText.row("--a-very-long-option-name <value>", "one two three four five six", columns: 40)
        #expect(row == "  --a-very-long-option-name <value>\n                          one two three\n                          four five six\n")
    }

    @Test func treeAnswersHelpVersionAndDefault() throws {
        let tree = CommandTree(name: "tool", abstract: "A tool.", version: "1.2", versionDetails: { "  lib 3\n" },
                               commands: [Sample.self], defaultCommand: Sample.self)
        guard case let .print(version) = try tree.parse(["--version"]) else { Issue.record("no version"); return }
        #expect(version == "tool 1.2\n  lib 3\n")
        guard case let .print(root) = try tree.parse(["--help"]) else { Issue.record("no help"); return }
        #expect(root.contains("sample (default)") && root.contains("USAGE: tool <subcommand>"))
        guard case let .print(bare) = try tree.parse([]) else { Issue.record("no usage for a bare command line"); return }
        #expect(bare == root)
        guard case let .print(page) = try tree.parse(["help", "sample"]) else { Issue.record("no page"); return }
        #expect(page.hasPrefix("OVERVIEW: A sample command."))
        guard case let .run(command) = try tree.parse(["x.txt", "--loud"]) else { Issue.record("no command"); return }
        #expect((command as? Sample)?.loud == true)
        #expect(throws: FlagError.self) { try tree.parse(["help", "nothing"]) }
    }
}

/// Flags named from an option table: declared, parsed and applied through the table's own
/// definitions, errors naming the flag.
@Suite struct TableFlagsTests {
    struct Target {
        var size = 0.0
        var bold = false
        var dirs: [String] = []
    }

    static let table: [OptionDefinition<Target>] = [
        OptionDefinition("size", "px", schema: "number", "Size in px.") { $0.size = try $1.number(in: 1...100) },
        OptionDefinition("bold", "bool", schema: "boolean", "Bold.") { $0.bold = try $1.bool() },
        OptionDefinition("dir", "dir", schema: "string", "A folder (repeatable).") { $0.dirs.append(try $1.string()) },
    ]

    struct Tabled: FlagGroup {
        @FlagList(TableFlagsTests.table.flagSpecs(["size", "bold", "dir"])) var given: GivenFlags
    }

    @Test func declaredFromTheTable() {
        let specs = Tabled.declaredFlags
        #expect(specs.map(\.label) == ["--size <px>", "--bold", "--dir <dir>"])
        #expect(specs.map(\.kind) == [.option, .flag, .option] && specs.first?.help == "Size in px.")
    }

    @Test func appliedInOrderTheLastOfASingleValueWinning() throws {
        let flags = try Tabled.parse(["--dir", "a", "--size", "3", "--bold", "--size=7", "--dir", "b"])
        let none = try Tabled.parse([])
        #expect(flags.given.names == ["size", "bold", "dir"] && flags.given.contains("bold") && !none.given.contains("bold"))
        var target = Target()
        try Self.table.apply(flags.given, to: &target)
        #expect(target.size == 7 && target.bold && target.dirs == ["a", "b"])
    }

    @Test func aRefusalNamesTheFlag() throws {
        let flags = try Tabled.parse(["--size", "500"])
        var target = Target()
        #expect(throws: FlagError.self) { try Self.table.apply(flags.given, to: &target) }
        do {
            try Self.table.apply(flags.given, to: &target)
        } catch {
            #expect(error.description.hasPrefix("--size: ") && error.description.contains("500"), "\(error)")
        }
        // Values read one by one: nil is not given.
        #expect(GivenFlags([("size", "2"), ("bold", nil)]).names == ["size"])
    }
}
