import Flags
import FoundationEssentials
import Card
import Render
import Typeset
import Support

/// Fonts, size and the rest of how text is set: shared by `render` and `steps`. Every value is
/// taken as text and parsed by the shared option table, as a card key is.
struct FontOptions: FlagGroup {
    @FlagList(modelFlags(["font", "size", "weight", "style", "stretch", "line-spacing", "direction", "rtl", "lang", "no-break-hyphen",
                          "wrap", "hyphenate", "hyphen-min", "line-height", "letter-spacing", "word-spacing",
                          "paragraph-spacing", "indent", "features", "variations", "color"]))
    var given: GivenFlags
    @Group var folders: FontFolderFlags

    /// The flags as block settings, through the option table.
    func apply(to settings: inout BlockSettings) throws {
        try applyFlags(given, to: &settings)
        if given.contains("hyphenate") && !FontSetup.hyphenation.available(settings.lang) {
            warn(settings.lang.isEmpty ? "--hyphenate needs --lang (a language with a hyphenation dictionary); not hyphenating"
                                       : "no hyphenation dictionary for '\(settings.lang)' (install Debian's hyphen-\(settings.lang.prefix(2)) package); not hyphenating")
        }
    }

    /// The run's fonts (render and steps draw one image and exit: faces open on the other core).
    func fonts() throws -> FontContext {
        try folders.fonts(prefetchFaces: true)
    }
}

/// What text to render, and how wide and aligned (`render` only).
struct TextOptions: FlagGroup {
    @Option("text", help: "The text to render.") var text: String?
    @Option("text-file", help: Help("Read the text from a UTF-8 file (default: standard input).", valueName: "path"))
    var textFile: String?
    @Option("markup", help: modelHelp("markup")) var markup: String?
    @Option("markup-file", help: Help("Read Pango markup from a UTF-8 file ('-': standard input).", valueName: "path"))
    var markupFile: String?
    @Option("markdown", help: modelHelp("markdown")) var markdown: String?
    @Option("markdown-file", help: Help("Read CommonMark from a UTF-8 file ('-': standard input).", valueName: "path"))
    var markdownFile: String?
    @Option("spans", help: modelHelp("spans")) var spans: String?
    @FlagList(modelFlags(["width", "align", "max-lines", "ellipsis", "role"])) var layout: GivenFlags
    @Group var font: FontOptions
    @Group var links: LinkSchemeFlags

    /// Whether the text comes as rich text (markup or spans) rather than plain text.
    var isRich: Bool { markup != nil || markupFile != nil || markdown != nil || markdownFile != nil || spans != nil }

    /// The block settings: the text (plain `input`, or the markup or spans given), these flags
    /// and the font's.
    func settings(for input: String?, limit: Int) throws -> BlockSettings {
        var settings = BlockSettings()
        settings.linkSchemes = try links.schemes()
        let given = [("--text", text != nil), ("--text-file", textFile != nil), ("--markup", markup != nil),
                     ("--markup-file", markupFile != nil), ("--markdown", markdown != nil), ("--markdown-file", markdownFile != nil),
                     ("--spans", spans != nil)].filter(\.1).map(\.0)
        let source = given.count > 1 ? nil : try markupFile.map { try InputText.read(text: nil, file: $0, limit: limit, what: "markup file") } ?? markup
        let commonMark = given.count > 1 ? nil
            : try markdownFile.map { try InputText.read(text: nil, file: $0, limit: limit, what: "Markdown file") } ?? markdown
        // Values are checked first (a bad one is named whatever else is given).
        try applyFlags([("text", input), ("markup", source), ("markdown", commonMark), ("spans", spans)], to: &settings)
        try applyFlags(layout, to: &settings)
        if given.count > 1 { throw CLIFailure(message: "give one of \(given.joined(separator: ", ")), not several") }
        try font.apply(to: &settings)
        return settings
    }
}
