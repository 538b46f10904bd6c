import Flags
import Pages

/// Paged PDF output: the flags only; sizes, margins and breaking live in the Pages library.
struct PageFlags: FlagGroup {
    @Option("page", help: modelHelp("page", in: PageSetup.options)) var page: String?
    @Option("page-margin", help: modelHelp("page-margin", in: PageSetup.options)) var pageMargin: String?
    @Option("orphans", help: modelHelp("orphans", in: PageSetup.options)) var orphans: String?
    @Option("widows", help: modelHelp("widows", in: PageSetup.options)) var widows: String?
    @Flag("page-numbers", help: modelHelp("page-numbers", in: PageSetup.options)) var pageNumbers = false
    @Option("page-number-format", help: modelHelp("page-number-format", in: PageSetup.options)) var pageNumberFormat: String?
    @Option("header", help: modelHelp("header", in: PageSetup.options)) var header: String?
    @Option("max-pages", help: modelHelp("max-pages", in: PageSetup.options)) var maxPages: String?

    /// The page setup, or nil without --page (then every other page flag is an error).
    func setup() throws -> PageSetup? {
        let others = [("page-margin", pageMargin), ("orphans", orphans), ("widows", widows),
                      ("page-numbers", pageNumbers ? "true" : nil), ("page-number-format", pageNumberFormat),
                      ("header", header), ("max-pages", maxPages)]
        guard page != nil else {
            let stray = others.filter { $0.1 != nil }.map { "--" + $0.0 }
            if !stray.isEmpty { throw CLIFailure(message: "\(stray.joined(separator: ", ")) need --page (e.g. --page a4)") }
            return nil
        }
        var setup = PageSetup(size: .a4)
        try applyFlags([("page", page)] + others, to: &setup, table: PageSetup.options)
        do {
            try setup.validate()
        } catch let error as PageError {
            throw CLIFailure(message: describe(error))
        }
        return setup
    }
}
