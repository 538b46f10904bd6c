import ArgumentParser
import FoundationEssentials
import Card
import Render
import Typeset
import Support

/// Fonts, size and the rest of how text is set: shared by `render` and `steps`. Every value is
/// taken as text and parsed by the shared option table, as a card key is.
struct FontOptions: ParsableArguments {
    @Option(help: modelHelp("font")) var font: String?
    @Option(help: modelHelp("size")) var size: String?
    @Option(help: modelHelp("weight")) var weight: String?
    @Option(help: modelHelp("style")) var style: String?
    @Option(help: modelHelp("line-spacing")) var lineSpacing: String?
    @Option(help: modelHelp("direction")) var direction: String?
    @Flag(help: modelHelp("rtl")) var rtl = false
    @Option(help: modelHelp("lang")) var lang: String?
    @Flag(help: modelHelp("no-break-hyphen")) var noBreakHyphen = false
    @Option(help: modelHelp("wrap")) var wrap: String?
    @Flag(help: modelHelp("hyphenate")) var hyphenate = false
    @Option(help: modelHelp("hyphen-min")) var hyphenMin: String?
    @Option(help: modelHelp("line-height")) var lineHeight: String?
    @Option(help: modelHelp("letter-spacing")) var letterSpacing: String?
    @Option(help: modelHelp("word-spacing")) var wordSpacing: String?
    @Option(help: modelHelp("paragraph-spacing")) var paragraphSpacing: String?
    @Option(help: modelHelp("indent")) var indent: String?
    @Option(help: modelHelp("features")) var features: String?
    @Option(help: modelHelp("variations")) var variations: String?
    @Option(help: modelHelp("color")) var color: String?
    @Option(help: ArgumentHelp("A folder of fonts to load before the pinned ones (repeatable).", valueName: "dir"))
    var fontDir: [String] = []
    @Flag(help: "Use only the pinned fonts (and --font-dir), not the system's.") var noSystemFonts = false

    /// The flags as block settings, through the option table.
    func apply(to settings: inout BlockSettings) throws {
        try applyFlags([("font", font), ("size", size), ("weight", weight), ("style", style), ("line-spacing", lineSpacing), ("direction", direction),
                        ("rtl", rtl ? "true" : nil), ("lang", lang), ("no-break-hyphen", noBreakHyphen ? "true" : nil),
                        ("wrap", wrap), ("hyphenate", hyphenate ? "true" : nil), ("hyphen-min", hyphenMin),
                        ("line-height", lineHeight), ("letter-spacing", letterSpacing), ("word-spacing", wordSpacing),
                        ("paragraph-spacing", paragraphSpacing), ("indent", indent), ("features", features), ("variations", variations), ("color", color)], to: &settings)
        if hyphenate && !Hyphenation.available(settings.lang) {
            warn(settings.lang.isEmpty ? "--hyphenate needs --lang (a language with a hyphenation dictionary); not hyphenating"
                                       : "no hyphenation dictionary for '\(settings.lang)' (install Debian's hyphen-\(settings.lang.prefix(2)) package); not hyphenating")
        }
    }

    /// The run's fonts.
    func fonts() throws -> FontContext {
        try FontSetup.fonts(extraDirectories: fontDir, systemFonts: !noSystemFonts)
    }
}

/// What text to render, and how wide and aligned (`render` only).
struct TextOptions: ParsableArguments {
    @Option(help: "The text to render.") var text: String?
    @Option(help: ArgumentHelp("Read the text from a UTF-8 file (default: standard input).", valueName: "path"))
    var textFile: String?
    @Option(help: modelHelp("markup")) var markup: String?
    @Option(help: ArgumentHelp("Read Pango markup from a UTF-8 file ('-': standard input).", valueName: "path"))
    var markupFile: String?
    @Option(help: modelHelp("spans")) var spans: String?
    @Option(help: modelHelp("width")) var width: String?
    @Option(help: modelHelp("align")) var align: String?
    @Option(help: modelHelp("max-lines")) var maxLines: String?
    @Option(help: modelHelp("ellipsis")) var ellipsis: String?
    @OptionGroup var font: FontOptions

    /// Whether the text comes as rich text (markup or spans) rather than plain text.
    var isRich: Bool { markup != nil || markupFile != nil || spans != nil }

    /// The block settings: the text (plain `input`, or the markup or spans given), these flags
    /// and the font's.
    func settings(for input: String?, limit: Int) throws -> BlockSettings {
        var settings = BlockSettings()
        let given = [("--text", text != nil), ("--text-file", textFile != nil), ("--markup", markup != nil),
                     ("--markup-file", markupFile != nil), ("--spans", spans != nil)].filter(\.1).map(\.0)
        let source = given.count > 1 ? nil : try markupFile.map { try InputText.read(text: nil, file: $0, limit: limit, what: "markup file") } ?? markup
        // Values are checked first (a bad one is named whatever else is given).
        try applyFlags([("text", input), ("markup", source), ("spans", spans), ("width", width), ("align", align),
                        ("max-lines", maxLines), ("ellipsis", ellipsis)], to: &settings)
        if given.count > 1 { throw CLIFailure(message: "give one of \(given.joined(separator: ", ")), not several") }
        try font.apply(to: &settings)
        return settings
    }
}

func parseColor(_ text: String, option: String) throws -> Color {
    guard let color = Color(parsing: text) else {
        throw CLIFailure(message: "\(option): '\(text)' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA, a CSS name or transparent)")
    }
    return color
}
