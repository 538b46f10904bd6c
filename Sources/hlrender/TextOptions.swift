import ArgumentParser
import FoundationEssentials
import Card
import Render
import Typeset
import Support

/// Fonts, size and the rest of how text is set: shared by `render` and `steps`.
struct FontOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Font as in pango-view (\"Noto Sans Bold 48\") or a font file path.", valueName: "font"))
    var font: String?
    @Option(help: "Font size in px (default: from --font, else 48).") var size: Double?
    @Option(help: "Baseline distance as a multiple of the natural line height.") var lineSpacing: Double = 1
    @Option(help: "Base direction: auto (from the first strong character), ltr or rtl.")
    var direction: BaseDirection = .auto
    @Flag(help: "Right-to-left base direction (same as --direction rtl).") var rtl = false
    @Option(help: "BCP 47 language for shaping and line breaking, e.g. ja.") var lang: String = ""
    @Flag(help: modelHelp("no-break-hyphen")) var noBreakHyphen = false
    @Option(help: modelHelp("wrap")) var wrap: String?
    @Flag(help: modelHelp("hyphenate")) var hyphenate = false
    @Option(help: modelHelp("hyphen-min")) var hyphenMin: String?
    @Option(help: modelHelp("line-height")) var lineHeight: String?
    @Option(help: modelHelp("letter-spacing")) var letterSpacing: String?
    @Option(help: modelHelp("word-spacing")) var wordSpacing: String?
    @Option(help: modelHelp("features")) var features: String?
    @Option(help: modelHelp("variations")) var variations: String?
    @Option(help: "Text colour: #RGB, #RRGGBB, #RRGGBBAA or a CSS name (default black, or black/white by contrast on a highlight).")
    var color: String?
    @Option(help: ArgumentHelp("A folder of fonts to load before the pinned ones (repeatable).", valueName: "dir"))
    var fontDir: [String] = []
    @Flag(help: "Use only the pinned fonts (and --font-dir), not the system's.") var noSystemFonts = false

    var baseDirection: BaseDirection { rtl ? .rtl : direction }

    /// The typesetter and the font size the options ask for.
    /// The typesetter, and the style every text of the run starts from (size, spacing,
    /// direction, language and the typographic flags, parsed once); callers set width and
    /// alignment.
    func typesetter() throws -> (Typesetter, TypesetStyle) {
        let spec = try FontSpec.parse(font ?? FontSpec.defaultFamily) { FileManager.default.fileExists(atPath: $0) }
        if let size { try positive(size, "--size", cap: .infinity) }  // the size range follows
        try positive(lineSpacing, "--line-spacing", cap: 1000)
        let fontSize = size ?? spec.size ?? 48
        try positive(fontSize, size != nil ? "--size" : "font size", cap: .infinity)
        guard TypesetStyle.sizeRange.contains(fontSize) else {
            throw CLIFailure(message: "\(size != nil ? "--size" : "font size") must be between \(TypesetStyle.sizeRange.lowerBound) and \(Int(TypesetStyle.sizeRange.upperBound)) px, got \(fontSize)")
        }
        var base = TypesetStyle(size: fontSize, lineSpacing: lineSpacing, direction: baseDirection, language: lang)
        try typography().typography(&base)
        if hyphenate && !Hyphenation.available(lang) {
            warn(lang.isEmpty ? "--hyphenate needs --lang (a language with a hyphenation dictionary); not hyphenating"
                              : "no hyphenation dictionary for '\(lang)' (install Debian's hyphen-\(lang.prefix(2)) package); not hyphenating")
        }
        let library = try FontSetup.library(extraDirectories: fontDir, systemFonts: !noSystemFonts)
        var request = spec
        request.size = nil
        return (Typesetter(library: library, font: request), base)
    }

    /// The typographic flags through the shared option table.
    private func typography() throws -> BlockSettings {
        var settings = BlockSettings()
        try applyFlags([("wrap", wrap), ("hyphen-min", hyphenMin), ("line-height", lineHeight), ("letter-spacing", letterSpacing), ("word-spacing", wordSpacing),
                        ("features", features), ("variations", variations)], to: &settings)
        settings.breakHyphens = !noBreakHyphen
        settings.hyphenate = hyphenate
        return settings
    }


    /// --color, else black or white by contrast on the highlight, else black.
    func textColor(highlight: HighlightPaint?, background: Color) throws -> Color {
        if let color { return try parseColor(color, option: "--color") }
        if let fill = highlight?.fill { return contrasting(fill, over: background) }
        return .black
    }
}

/// What text to render, and how wide and aligned (`render` only).
struct TextOptions: ParsableArguments {
    @Option(help: "The text to render.") var text: String?
    @Option(help: ArgumentHelp("Read the text from a UTF-8 file (default: standard input).", valueName: "path"))
    var textFile: String?
    @Option(help: "Wrap width in px (default: no wrapping).") var width: Double?
    @Option(help: "left, center, right, start, end or justify (start/end follow each paragraph's direction; justify fills every line but a paragraph's last; default start).")
    var align: Alignment = .start
    @Option(help: modelHelp("max-lines")) var maxLines: String?
    @Option(help: modelHelp("ellipsis")) var ellipsis: String?
    @OptionGroup var font: FontOptions

    func typeset(_ input: String) throws -> (Layout, TypesetStyle, Typesetter) {
        let (typesetter, style) = try self.style()
        return (try typesetter.layout(input, style: style), style, typesetter)
    }

    /// The typesetter and the whole style the flags ask for.
    func style() throws -> (Typesetter, TypesetStyle) {
        if let width { try positive(width, "--width") }
        var clamp = BlockSettings()
        try applyFlags([("max-lines", maxLines), ("ellipsis", ellipsis)], to: &clamp)
        let (typesetter, base) = try font.typesetter()
        var style = base
        style.width = width
        style.alignment = align
        style.maxLines = clamp.maxLines
        style.ellipsis = clamp.ellipsis
        return (typesetter, style)
    }
}

func parseColor(_ text: String, option: String) throws -> Color {
    guard let color = Color(parsing: text) else {
        throw CLIFailure(message: "\(option): '\(text)' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA, a CSS name or transparent)")
    }
    return color
}

/// A positive finite number, at most `cap` (a length: `Checked.maxLength`).
func positive(_ value: Double, _ option: String, cap: Double = Checked.maxLength) throws {
    guard value.isFinite, value > 0 else {
        throw CLIFailure(message: "\(option) must be a positive finite number, got \(value)")
    }
    guard value <= cap else {
        throw CLIFailure(message: "\(option) must be at most \(Checked.describe(cap)), got \(Checked.describe(value))")
    }
}
