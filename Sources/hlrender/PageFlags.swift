import ArgumentParser
import Pages

/// Paged PDF output: the flags only; sizes, margins and breaking live in the Pages library.
struct PageFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Put the text on pages: a4, a5, letter, legal (-landscape to turn) or WxH in pt, mm or in (PDF only; default: one page fitted to the text).", valueName: "size"))
    var page: String?
    @Option(help: ArgumentHelp("Page margins, one to four lengths in CSS order (default 20mm).", valueName: "lengths"))
    var pageMargin: String?
    @Option(help: "Least lines of a paragraph left at the bottom of a page.") var orphans: Int = 2
    @Option(help: "Least lines of a paragraph carried to the top of a page.") var widows: Int = 2
    @Flag(help: "Number the pages in the footer.") var pageNumbers = false
    @Option(help: ArgumentHelp("The page number's text ({page}, {pages}).", valueName: "format"))
    var pageNumberFormat: String?
    @Option(help: ArgumentHelp("Text at the top of every page ({page}, {pages} filled in).", valueName: "text"))
    var header: String?
    @Option(help: ArgumentHelp("Write at most this many pages (a preview of a long text's start).", valueName: "n"))
    var maxPages: Int?

    /// The page setup, or nil without --page (then every other page flag is an error).
    func setup() throws -> PageSetup? {
        guard let page else {
            let stray = [("--page-margin", pageMargin != nil), ("--page-numbers", pageNumbers),
                         ("--page-number-format", pageNumberFormat != nil), ("--header", header != nil),
                         ("--max-pages", maxPages != nil), ("--orphans", orphans != 2), ("--widows", widows != 2)]
                .filter(\.1).map(\.0)
            if !stray.isEmpty { throw CLIFailure(message: "\(stray.joined(separator: ", ")) need --page (e.g. --page a4)") }
            return nil
        }
        do {
            var setup = PageSetup(size: try PageSize(parsing: page), margins: try pageMargin.map { try PageMargins(parsing: $0) } ?? .default)
            setup.orphans = orphans
            setup.widows = widows
            setup.header = header
            setup.pageNumbers = pageNumbers || pageNumberFormat != nil ? pageNumberFormat ?? PageSetup.defaultNumberFormat : nil
            setup.maxPages = maxPages
            try setup.validate()
            return setup
        } catch let error as PageError {
            throw CLIFailure(message: error.description)
        }
    }
}
