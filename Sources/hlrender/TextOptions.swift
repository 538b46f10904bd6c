import ArgumentParser
import Foundation
import Render
import Typeset

/// Options that say what text to lay out and how.
struct TextOptions: ParsableArguments {
    @Option(help: "The text to render.") var text: String?
    @Option(help: ArgumentHelp("Read the text from a UTF-8 file (default: standard input).", valueName: "path"))
    var textFile: String?
    @Option(help: ArgumentHelp("Font as in pango-view (\"Noto Sans Bold 48\") or a font file path.", valueName: "font"))
    var font: String?
    @Option(help: "Font size in px (default: from --font, else 48).") var size: Double?
    @Option(help: "Wrap width in px (default: no wrapping).") var width: Double?
    @Option(help: "left, center, right, start or end (start/end follow each paragraph's direction; default start).")
    var align: Alignment = .start
    @Option(help: "Baseline distance as a multiple of the natural line height.") var lineSpacing: Double = 1
    @Option(help: "Base direction: auto (from the first strong character), ltr or rtl.")
    var direction: BaseDirection = .auto
    @Flag(help: "Right-to-left base direction (same as --direction rtl).") var rtl = false
    @Option(help: "BCP 47 language for shaping and line breaking, e.g. ja.") var lang: String = ""
    @Option(help: "Text colour: #RGB, #RRGGBB, #RRGGBBAA or a CSS name (default black, or black/white by contrast on a highlight).")
    var color: String?
    @Option(help: ArgumentHelp("A folder of fonts to load before the pinned ones (repeatable).", valueName: "dir"))
    var fontDir: [String] = []
    @Flag(help: "Use only the pinned fonts (and --font-dir), not the system's.") var noSystemFonts = false

    func typeset(_ input: String) throws -> (Layout, TypesetStyle, Typesetter) {
        let spec = try FontSpec.parse(font ?? FontSpec.defaultFamily) { FileManager.default.fileExists(atPath: $0) }
        if let size { try positive(size, "--size") }
        if let width { try positive(width, "--width") }
        try positive(lineSpacing, "--line-spacing")
        let style = TypesetStyle(size: size ?? spec.size ?? 48, width: width, alignment: align,
                                 lineSpacing: lineSpacing, direction: rtl ? .rtl : direction, language: lang)
        try positive(style.size, "font size")
        let library = try FontSetup.library(extraDirectories: fontDir, systemFonts: !noSystemFonts)
        var request = spec
        request.size = nil
        let typesetter = Typesetter(library: library, font: request)
        return (try typesetter.layout(input, style: style), style, typesetter)
    }
}

func parseColor(_ text: String, option: String) throws -> Color {
    guard let color = Color(parsing: text) else {
        throw CLIFailure(message: "\(option): '\(text)' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA, a CSS name or transparent)")
    }
    return color
}

func positive(_ value: Double, _ option: String) throws {
    guard value.isFinite, value > 0 else {
        throw CLIFailure(message: "\(option) must be a positive finite number, got \(value)")
    }
}
