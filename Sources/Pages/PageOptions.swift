import Support

extension PageSetup {
    static let lineCounts = 1...100
    static let pageCounts = 1...1_000_000

    /// The page options, defined once for the CLI's flags (and any front end that pages).
    /// `page` sets the size; the others need it set first.
    package static let options: [OptionDefinition<PageSetup>] = [
        OptionDefinition("page", "size", schema: "string", "Put the text on pages: a4, a5, letter, legal (-landscape to turn) or WxH in pt, mm or in (PDF only; default: one page fitted to the text).") {
            let text = try $1.string()
            $0.size = try pageValue { try PageSize(parsing: text) }
        },
        OptionDefinition("page-margin", "lengths", schema: "string", "Page margins, one to four lengths in CSS order (default 20mm).") {
            let text = try $1.string()
            $0.margins = try pageValue { try PageMargins(parsing: text) }
        },
        OptionDefinition("orphans", "n", schema: "integer", "Least lines of a paragraph left at the bottom of a page (1 to 100, default 2).") {
            $0.orphans = try $1.integer(in: lineCounts)
        },
        OptionDefinition("widows", "n", schema: "integer", "Least lines of a paragraph carried to the top of a page (1 to 100, default 2).") {
            $0.widows = try $1.integer(in: lineCounts)
        },
        OptionDefinition("page-numbers", "bool", schema: "boolean", "Number the pages in the footer.") {
            $0.pageNumbers = try $1.bool() ? $0.pageNumbers ?? defaultNumberFormat : nil
        },
        OptionDefinition("page-number-format", "format", schema: "string", "The page number's text ({page}, {pages}); turns page numbers on.") {
            let text = try $1.string()
            try pageValue { try checkPlaceholders(text, option: "page-number-format") }
            $0.pageNumbers = text
        },
        OptionDefinition("header", "text", schema: "string", "Text at the top of every page ({page}, {pages} filled in).") {
            let text = try $1.string()
            try pageValue { try checkPlaceholders(text, option: "header") }
            $0.header = text
        },
        OptionDefinition("max-pages", "n", schema: "integer", "Write at most this many pages (a preview of a long text's start).") {
            $0.maxPages = try $1.integer(in: pageCounts)
        },
    ]

    /// A page value's own check, as an option's refusal.
    private static func pageValue<T>(_ make: () throws -> T) throws -> T {
        do {
            return try make()
        } catch let error as PageError {
            throw OptionError(error.message)
        }
    }
}
