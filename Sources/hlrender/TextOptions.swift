import Flags
import FoundationEssentials
import Card
import Render
import Typeset
import Support

/// Fonts, size and the rest of how text is set: shared by `render` and `steps`. Every value is
/// taken as text and parsed by the shared option table, as a card key is.
struct FontOptions: FlagGroup {
    @Option("font", help: modelHelp("font")) var font: String?
    @Option("size", help: modelHelp("size")) var size: String?
    @Option("weight", help: modelHelp("weight")) var weight: String?
    @Option("style", help: modelHelp("style")) var style: String?
    @Option("line-spacing", help: modelHelp("line-spacing")) var lineSpacing: String?
    @Option("direction", help: modelHelp("direction")) var direction: String?
    @Flag("rtl", help: modelHelp("rtl")) var rtl = false
    @Option("lang", help: modelHelp("lang")) var lang: String?
    @Flag("no-break-hyphen", help: modelHelp("no-break-hyphen")) var noBreakHyphen = false
    @Option("wrap", help: modelHelp("wrap")) var wrap: String?
    @Flag("hyphenate", help: modelHelp("hyphenate")) var hyphenate = false
    @Option("hyphen-min", help: modelHelp("hyphen-min")) var hyphenMin: String?
    @Option("line-height", help: modelHelp("line-height")) var lineHeight: String?
    @Option("letter-spacing", help: modelHelp("letter-spacing")) var letterSpacing: String?
    @Option("word-spacing", help: modelHelp("word-spacing")) var wordSpacing: String?
    @Option("paragraph-spacing", help: modelHelp("paragraph-spacing")) var paragraphSpacing: String?
    @Option("indent", help: modelHelp("indent")) var indent: String?
    @Option("features", help: modelHelp("features")) var features: String?
    @Option("variations", help: modelHelp("variations")) var variations: String?
    @Option("color", help: modelHelp("color")) var color: String?
    @Option("font-dir", help: Help("A folder of fonts to load before the pinned ones (repeatable).", valueName: "dir"))
    var fontDir: [String] = []
    @Flag("no-system-fonts", help: "Use only the pinned fonts (and --font-dir), not the system's.") var noSystemFonts = false

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
struct TextOptions: FlagGroup {
    @Option("text", help: "The text to render.") var text: String?
    @Option("text-file", help: Help("Read the text from a UTF-8 file (default: standard input).", valueName: "path"))
    var textFile: String?
    @Option("markup", help: modelHelp("markup")) var markup: String?
    @Option("markup-file", help: Help("Read Pango markup from a UTF-8 file ('-': standard input).", valueName: "path"))
    var markupFile: String?
    @Option("spans", help: modelHelp("spans")) var spans: String?
    @Option("width", help: modelHelp("width")) var width: String?
    @Option("align", help: modelHelp("align")) var align: String?
    @Option("max-lines", help: modelHelp("max-lines")) var maxLines: String?
    @Option("ellipsis", help: modelHelp("ellipsis")) var ellipsis: String?
    @Group var font: FontOptions

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
