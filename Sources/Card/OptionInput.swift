import Render
import Typeset
import Support

extension OptionInput {
    package func color() throws -> Color {
        let text = try string()
        guard let color = Color(parsing: text) else {
            throw OptionError("'\(text)' is not a colour (use #RGB, #RRGGBB, #RRGGBBAA, a CSS name or transparent)")
        }
        return color
    }

    /// A length: px as a number or `Npx`, or `Nem` (a multiple of the font size).
    package func length() throws -> Length {
        if case let .json(.number(n)) = self { return .px(n) }
        let text = try string().trimmed.lowercased()
        let isEm = text.hasSuffix("em")
        let digits = isEm || text.hasSuffix("px") ? String(text.dropLast(2)) : text
        guard let value = Double(digits.trimmed), value.isFinite else { throw OptionError("'\(text)' is not a length (px, or em like 0.3em)") }
        return isEm ? .em(value) : .px(value)
    }
}

extension Length {
    var isNegative: Bool {
        switch self {
        case let .px(v), let .em(v): return v < 0
        }
    }
}
