import Markup
import Render
import Support
import Typeset

/// One item of a block's `"spans"`: its text and the span keys it gives, parsed by the option
/// table's rows like block keys.
package struct SpanInput: Sendable {
    package let text: String
    let settings: BlockSettings
    let keys: [String]

    static func parse(_ json: JSONValue, index: Int, linkSchemes: LinkSchemes) throws -> SpanInput {
        guard case let .object(members) = json else { throw OptionError("must be an object with text, not \(json.typeName)", at: "[\(index)]") }
        guard case let .string(text)? = json["text"] else { throw OptionError("is missing (every span has its text)", at: "[\(index)].text") }
        var settings = BlockSettings()
        settings.linkSchemes = linkSchemes
        let known = OptionModel.names(for: .span)
        for (key, value) in members where key != "text" {
            guard known.contains(key) else {
                let hint = suggestion(for: key, among: known).map { "; " + didYouMean([$0]) } ?? ""
                throw OptionError("unknown span key\(hint)", at: "[\(index)].\(key)")
            }
            do { try OptionModel.named(key)!.apply(.json(value), to: &settings) } catch let error as OptionError {
                throw OptionError(error.reason, at: "[\(index)].\(key)" + error.subpath)
            }
        }
        return SpanInput(text: text, settings: settings, keys: members.map(\.key).filter { $0 != "text" })
    }
}

/// A block's text with its spans, from markup, a `"spans"` list or plain text; spans come in
/// the order they opened (an inner span after its outer one), as UTF-8 bytes of `text`.
struct RichText {
    /// What a span sets: its settings and the keys it gave. Shared by every span of the same
    /// markup tag: a long marked-up document has tens of thousands of spans but few distinct
    /// tags, and a settings value per span held ~1.5 KB each (90 MB for 2.5 MB of markup).
    final class SpanStyle: Sendable {
        let settings: BlockSettings
        let keys: Set<String>
        init(settings: BlockSettings, keys: Set<String>) { (self.settings, self.keys) = (settings, keys) }
    }

    struct Span {
        var start: Int, end: Int
        let style: SpanStyle
        var settings: BlockSettings { style.settings }
        var keys: Set<String> { style.keys }
    }

    var text: String
    var spans: [Span] = []

    init(plain text: String) { self.text = text }

    init(spans items: [SpanInput]) {
        text = ""
        for item in items {
            let start = text.utf8.count
            text += item.text
            if !item.keys.isEmpty, text.utf8.count > start {
                spans.append(Span(start: start, end: text.utf8.count, style: SpanStyle(settings: item.settings, keys: Set(item.keys))))
            }
        }
    }

    /// Parses markup; an error is one line that says where (line and column) and what.
    /// `linkSchemes`: what an `href` may use.
    init(markup source: String, linkSchemes: LinkSchemes) throws(OptionError) {
        let marked: MarkedText
        do { marked = try Markup.parse(source) } catch { throw OptionError("\(error.position): \(error.message)") }
        text = marked.text
        // One style per distinct tag (its attributes' names and values, in order): read through
        // the option table once, where a bad value is reported at its first place.
        var styles: [[String]: SpanStyle] = [:]
        for span in marked.spans where span.end > span.start {
            let tag = span.attributes.flatMap { [$0.name, $0.value] }
            if let style = styles[tag] {
                spans.append(Span(start: span.start, end: span.end, style: style))
                continue
            }
            var settings = BlockSettings()
            settings.linkSchemes = linkSchemes
            var keys = Set<String>()
            var setBy: [String: String] = [:]
            for attribute in span.attributes {
                do {
                    for (key, input) in try MarkupAttributes.options(attribute) {
                        // Two names for one setting (color and foreground): which one wins would
                        // be a guess.
                        if let other = setBy[key], other != attribute.name {
                            throw OptionError("sets the same as \(other) in this span (give one of them)")
                        }
                        setBy[key] = attribute.name
                        try OptionModel.named(key)!.apply(input, to: &settings)
                        keys.insert(key)
                    }
                } catch let error as OptionError {
                    throw OptionError("\(attribute.position): \(attribute.name): \(error.message)")
                } catch {
                    throw OptionError("\(attribute.position): \(attribute.name): \(error)")
                }
            }
            let style = SpanStyle(settings: settings, keys: keys)
            styles[tag] = style
            spans.append(Span(start: span.start, end: span.end, style: style))
        }
    }
}

/// Pango's span attributes as option-table keys and values: Pango's units (1024ths of a point,
/// 1 pt = 1 px here) become px, its relative sizes a scale.
enum MarkupAttributes {
    static func options(_ attribute: MarkupAttribute) throws -> [(String, OptionInput)] {
        let value = attribute.value
        switch attribute.name {
        case "font", "font_desc": return [("font", .text(value))]
        case "font_family", "face": return [("font-family", .text(value))]
        case "size", "font_size": return [try size(value)]
        case "weight", "font_weight": return [("weight", .text(value))]
        case "style", "font_style": return [("style", .text(value))]
        case "stretch", "font_stretch": return [("stretch", .text(value))]
        case "color", "foreground", "fgcolor": return [("color", .text(value))]
        // Pango's background: a plain box behind the text.
        case "background", "bgcolor": return [("highlight", .text(value)), ("radius", .text("0")), ("padding", .text("0"))]
        case "underline": return [("underline", .text(value))]
        case "underline_color": return [("underline-color", .text(value))]
        case "strikethrough": return [("strikethrough", .text(value))]
        case "strikethrough_color": return [("strikethrough-color", .text(value))]
        case "letter_spacing": return [("letter-spacing", .text(try points(value, "letter_spacing") + "px"))]
        case "font_features": return [("features", .text(value))]
        case "lang": return [("lang", .text(value))]
        case "rise": return [("baseline-shift", .text(try points(value, "rise") + "px"))]
        case "baseline_shift":
            switch value.lowercased() {
            case "superscript", "subscript", "none": return [("baseline-shift", .text(value))]
            default: return [("baseline-shift", .text(try points(value, "baseline_shift") + "px"))]
            }
        case "highlight": return [("highlight", .text(value))]
        case "outline_color": return [("outline-color", .text(value))]
        case "href": return [("link", .text(value))]
        // Pango's font_scale: a size for super- and subscripts (its fallback, 1/1.2, as fonts
        // without OS/2 sizes get); the shift is baseline_shift's.
        case "font_scale":
            switch value.trimmed.lowercased() {
            case "superscript", "subscript": return [("font-scale", .text(String(1 / 1.2)))]
            case "none": return [("font-scale", .text("1"))]
            default: throw OptionError("'\(value)' is not superscript, subscript or none")
            }
        default: throw OptionError("is not a span attribute")
        }
    }

    /// Pango's relative size words, as powers of 1.2 (its scale step).
    static let sizeWords: [String: Double] = ["xx-small": -3, "x-small": -2, "small": -1, "medium": 0, "large": 1,
                                              "x-large": 2, "xx-large": 3]

    /// A Pango size: 1024ths of a point, "12pt", "150%", larger/smaller or a size word.
    static func size(_ text: String) throws -> (String, OptionInput) {
        let value = text.trimmed.lowercased()
        if value == "larger" { return ("font-scale", .text("1.2")) }
        if value == "smaller" { return ("font-scale", .text(String(1 / 1.2))) }
        if let power = sizeWords[value] { return ("font-scale", .text(String(pow12(power)))) }
        if value.hasSuffix("%"), let percent = Double(value.dropLast()) { return ("font-scale", .text(String(percent / 100))) }
        return ("size", .text(try points(value, "size")))
    }

    /// A Pango length: whole 1024ths of a point, or "Npt" ("Npx" too), in px.
    static func points(_ text: String, _ name: String) throws -> String {
        let value = text.trimmed.lowercased()
        for unit in ["pt", "px"] where value.hasSuffix(unit) {
            guard let v = Double(value.dropLast(2)), v.isFinite else { break }
            return String(v)
        }
        guard let units = Int(value) else { throw OptionError("'\(text)' is not a \(name) in 1024ths of a point or in pt") }
        return String(Double(units) / 1024)
    }

    private static func pow12(_ power: Double) -> Double {
        var out = 1.0
        for _ in 0..<Int(abs(power)) { out = power > 0 ? out * 1.2 : out / 1.2 }
        return out
    }
}
