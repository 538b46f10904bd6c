import Host
import Flags
import Pages

/// Paged PDF output: the flags only; sizes, margins and breaking live in the Pages library.
struct PageFlags: FlagGroup {
    @FlagList(PageSetup.options.flagSpecs(["page", "page-margin", "orphans", "widows", "page-numbers", "page-number-format",
                                           "header", "max-pages"]))
    var given: GivenFlags

    /// Whether the text goes on pages (--page).
    var isPaged: Bool { given.contains("page") }

    /// The page setup, or nil without --page (then every other page flag is an error).
    func setup() throws -> PageSetup? {
        guard isPaged else {
            let stray = given.names.map { "--" + $0 }
            if !stray.isEmpty { throw CLIFailure(message: "\(stray.joined(separator: ", ")) need --page (e.g. --page a4)") }
            return nil
        }
        var setup = PageSetup(size: .a4)
        setup.spoolFolder = Host.temporaryDirectory()
        try PageSetup.options.apply(given, to: &setup)
        do {
            try setup.validate()
        } catch let error as PageError {
            throw CLIFailure(message: describe(error))
        }
        return setup
    }
}
