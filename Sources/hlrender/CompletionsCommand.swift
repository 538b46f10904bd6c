import Flags
import ServeConfig

/// `hlrender completions bash|zsh|fish` and `hlrender options --man`: the shell completions and
/// the man page, from the flag declarations `--help` prints (serve's are the service's table).
struct CompletionsCommand: Command {
    static let info = CommandInfo(
        name: "completions",
        abstract: "Print a shell completion script: bash, zsh or fish.",
        discussion: """
            bash: `hlrender completions bash > /etc/bash_completion.d/hlrender`; zsh: into a folder of \
            $fpath as _hlrender; fish: into ~/.config/fish/completions/hlrender.fish. `make install` \
            puts all three, and the man page, under PREFIX/share.
            """)

    @Argument(help: Help("The shell.", valueName: "bash|zsh|fish")) var shells: [String] = []

    func run() throws {
        guard shells.count <= 1 else { throw CLIFailure(message: "give one shell, got \(shells.count)") }
        let shell = shells.first ?? ""
        guard let chosen = Completions.Shell(rawValue: shell) else {
            throw CLIFailure(message: shell.isEmpty ? "give a shell: bash, zsh or fish" : "'\(shell)' is not bash, zsh or fish")
        }
        let entries = Completions.entries(HLRender.tree, override: Self.passedOn)
        print(Completions.script(chosen, program: "hlrender", entries: entries, defaultCommand: HLRender.tree.defaultCommand?.info.name),
              terminator: "")
    }

    /// Commands whose flags are another program's: serve's are the service's option table.
    static var passedOn: [String: [FlagSpec]] { ["serve": ServeFlags.flagSpecs] }

    /// The man page.
    static func manPage() -> String {
        ManPage.page(HLRender.tree, override: passedOn, extra: [
            ManPage.Section("Environment", [
                ("HLRENDER_FONT_DIR", "Folders of the pinned fonts (colon-separated), used when none are beside the executable (../share/hlrender/fonts)."),
                ("HLRENDER_HYPHEN_DIR", "The folder of hyphenation dictionaries (default /usr/share/hyphen)."),
                ("XDG_CACHE_HOME, HOME", "Fontconfig's cache of the pinned fonts goes in $XDG_CACHE_HOME/hlrender (else ~/.cache/hlrender)."),
                ("TMPDIR", "Where long documents spool their laid-out lines (default /tmp)."),
                ("SOURCE_DATE_EPOCH", "The creation date written into PDFs, for reproducible builds."),
            ]),
            ManPage.Section("Files", [
                ("PREFIX/share/hlrender/fonts", "The pinned fonts an installed hlrender finds beside its real executable."),
            ]),
            ManPage.Section("Exit status", [
                ("0", "Success."), ("1", "Images differ (compare, --expect, golden suites)."), ("2", "Image sizes differ."),
                ("3", "Bad input or failure; one line on standard error names it."),
            ]),
        ])
    }
}
