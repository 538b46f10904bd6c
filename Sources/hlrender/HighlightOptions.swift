import ArgumentParser
import Highlight
import Render
import Typeset

enum HighlightMode: String, CaseIterable, ExpressibleByArgument {
    case fill, outline, both, none
}

extension Join: ExpressibleByArgument {}

/// Options of the story-style highlight behind the lines.
struct HighlightOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Highlight fill colour (alpha allowed); turns the highlight on.", valueName: "colour"))
    var highlight: String?
    @Option(help: "fill, outline, both or none (default: from the colours given: --highlight fills, --outline-color outlines).")
    var highlightStyle: HighlightMode?
    @Option(help: "Outline colour (default: the highlight colour, else black).") var outlineColor: String?
    @Option(help: "Outline width in px.") var outlineWidth: Double = 2
    @Option(help: ArgumentHelp("Highlight padding X[,Y] in px (default 0.3em,0.08em).", valueName: "x[,y]"))
    var padding: String?
    @Option(help: ArgumentHelp("Corner radius in px, or auto (a quarter of the line height).", valueName: "auto|px"))
    var radius: String = "auto"
    @Option(help: "merged: one shape per block; separate: a rounded pill per line.") var join: Join = .merged

    /// The paint, or nil when no highlight is wanted. Without --highlight-style the colours
    /// given decide: --highlight fills, --outline-color outlines, both give both.
    func paint(fontSize: Double) throws -> HighlightPaint? {
        let mode = highlightStyle ?? (highlight != nil ? (outlineColor != nil ? .both : .fill)
                                                       : (outlineColor != nil ? .outline : .none))
        if mode == .none { return nil }
        let fillColor = try highlight.map { try parseColor($0, option: "--highlight") }
        let strokeColor = try outlineColor.map { try parseColor($0, option: "--outline-color") } ?? fillColor ?? .black
        guard outlineWidth.isFinite, outlineWidth >= 0 else {
            throw CLIFailure(message: "--outline-width must be zero or more, got \(outlineWidth)")
        }
        let (paddingX, paddingY) = try parsePadding(fontSize: fontSize)
        return HighlightPaint(style: HighlightStyle(paddingX: paddingX, paddingY: paddingY, radius: try parseRadius(), join: join),
                              fill: mode == .outline ? nil : fillColor ?? .white,
                              stroke: mode == .fill ? nil : strokeColor, strokeWidth: outlineWidth)
    }

    private func parseRadius() throws -> CornerRadius {
        if radius.lowercased() == "auto" { return .auto }
        guard let value = Double(radius), value.isFinite, value >= 0 else {
            throw CLIFailure(message: "--radius: '\(radius)' is not 'auto' or a number of px >= 0")
        }
        return .fixed(value)
    }

    private func parsePadding(fontSize: Double) throws -> (Double, Double) {
        guard let padding else { return (0.3 * fontSize, 0.08 * fontSize) }
        let parts = padding.split(separator: ",", omittingEmptySubsequences: false)
            .map { parseLength(String($0), fontSize: fontSize) }
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else {
            throw CLIFailure(message: "--padding: '\(padding)' is not X or X,Y with lengths >= 0 (px, or em like 0.3em)")
        }
        return (parts[0]!, parts.count == 2 ? parts[1]! : parts[0]!)
    }
}

/// A length in px: a plain number, `Npx`, or `Nem` (times the font size); nil when not one.
func parseLength(_ text: String, fontSize: Double) -> Double? {
    let t = text.trimmed.lowercased()
    let (number, unit) = t.hasSuffix("em") ? (t.dropLast(2), fontSize) : t.hasSuffix("px") ? (t.dropLast(2), 1.0) : (Substring(t), 1.0)
    guard let value = Double(number.trimmed), value.isFinite else { return nil }
    let length = value * unit
    return length.isFinite ? length : nil
}

/// Black or white, whichever has the higher WCAG contrast on the highlight as it shows over
/// the background.
func autoTextColor(on highlight: Color, background: Color) -> Color {
    let base = background.alpha > 0 ? background.over(.white) : .white
    let shown = highlight.over(base)
    return Color.black.contrast(with: shown) >= Color.white.contrast(with: shown) ? .black : .white
}

