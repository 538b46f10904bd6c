import Highlight
import Motion
import Render
import Steps
import Typeset
import Support

/// A text or steps block's options (the long flags of `hlrender render`/`steps`, the keys of
/// a card block, the service's card fields).
package typealias BlockOption = OptionDefinition<BlockSettings>

package enum OptionModel {
    /// Which blocks an option applies to; `span`: only a span of rich text (a `"spans"` item, a
    /// markup attribute).
    package enum Scope: Sendable { case text, steps, both, span }

    package static func named(_ name: String) -> BlockOption? { byName[name]?.0 }

    package static func scope(of name: String) -> Scope? { byName[name]?.1 }

    /// The keys of a scope; `.span` gives every key a span takes (its own and the block keys
    /// that style a stretch of text).
    package static func names(for scope: Scope) -> [String] {
        if scope == .span { return table.filter { $0.1 == .span || spanKeys.contains($0.0.name) }.map(\.0.name) }
        return table.filter { $0.1 == .both || $0.1 == scope }.map(\.0.name)
    }

    /// Block keys a span takes too.
    package static let spanKeys: Set<String> = [
        "font", "size", "weight", "style", "stretch", "letter-spacing", "features", "lang", "color", "highlight", "highlight-style",
        "outline-color", "outline-width", "padding", "radius",
    ]

    /// Every block option, in the table's order.
    package static var all: [BlockOption] { table.map(\.0) }

    private static let byName: [String: (BlockOption, Scope)] = Dictionary(uniqueKeysWithValues: table.map { ($0.0.name, $0) })

    /// The longest font name or font file path taken (PATH_MAX).
    static let maxFontName = 4096

    /// No length an option takes needs more (and past it sums and Cairo coordinates overflow).
    static let maxLength = Checked.maxLength

    static func positive(_ v: Double, _ what: String = "must be a positive number") throws -> Double {
        guard v.isFinite, v > 0 else { throw OptionError("\(what), got \(v)") }
        guard v <= maxLength else { throw OptionError("must be at most \(Int(maxLength)), got \(v)") }
        return v
    }

    /// A length in px or em, 0 up to the largest any option takes.
    private static func nonNegativeLength(_ input: OptionInput) throws -> Length {
        let length = try input.length()
        guard length.resolved(fontSize: 1) >= 0 else { throw OptionError("must be 0 or more") }
        guard length.resolved(fontSize: 1) <= maxLength else { throw OptionError("is too large") }
        return length
    }

    static func nonNegative(_ v: Double) throws -> Double {
        guard v.isFinite, v >= 0 else { throw OptionError("must be 0 or more, got \(v)") }
        guard v <= maxLength else { throw OptionError("must be at most \(Int(maxLength)), got \(v)") }
        return v
    }

    private static func define(_ name: String, _ valueName: String, _ scope: Scope = .both,
                               schema: String, _ help: String,
                               _ apply: @escaping @Sendable (inout BlockSettings, OptionInput) throws -> Void) -> (BlockOption, Scope) {
        (BlockOption(name, valueName, schema: schema, help, apply), scope)
    }

    /// The `steps` row (the `steps` command hands it the texts it read).
    package static let stepsRow = BlockOption("steps", "texts", schema: "array", "The steps' texts, one per step.") {
        guard case let .json(.array(items)) = $1 else {
            $0.steps = try $1.string().split(whereSeparator: \.isNewline).map(String.init)
            return
        }
        $0.steps = try items.map { try OptionInput.json($0).string() }
    }

    private static let table: [(BlockOption, Scope)] = [
        define("text", "text", .text, schema: "string", "The text to render.") { $0.text = try $1.string() },
        define("text-file", "path", .text, schema: "string", "Read the text from a UTF-8 file.") { $0.textFile = try $1.string() },
        define("font", "font", schema: "string", "Font as in pango-view (\"Noto Sans Bold 48\") or a font file path.") {
            let text = try $1.string()
            guard !text.trimmed.isEmpty else { throw OptionError("is empty") }
            // A path is at most PATH_MAX; a name longer than any family only costs the lookup
            // and its "did you mean" (100 KB took 11 s against the system's families).
            guard text.utf8.count <= maxFontName else { throw OptionError("is longer than \(maxFontName) bytes") }
            $0.font = text
        },
        define("size", "px", schema: "number", "Font size in px (default: from the font, else 48; 12 on --page pages).") {
            let v = try $1.number()
            guard TypesetStyle.sizeRange.contains(v) else {
                throw OptionError("must be between \(TypesetStyle.sizeRange.lowerBound) and \(Int(TypesetStyle.sizeRange.upperBound)) px, got \(v)")
            }
            $0.size = v
        },
        define("markup", "markup", .text, schema: "string", "Pango markup to render instead of text: <b> <i> <u> <s> <sub> <sup> <small> <big> <tt> <a href> and <span> with span keys (Pango's names, plus highlight and outline_color).") {
            $0.markup = try $1.string()
        },
        define("markup-file", "path", .text, schema: "string", "Read Pango markup from a UTF-8 file.") { $0.markupFile = try $1.string() },
        define("markdown", "markdown", .text, schema: "string", "CommonMark to render instead of text: headings, emphasis, code, links, block quotes, lists, rules (tagged H1-H6, L/LI/Lbl/LBody, BlockQuote, Code in a PDF; headings are bookmarks on pages). Raw HTML shows as text.") {
            $0.markdown = try $1.string()
        },
        define("markdown-file", "path", .text, schema: "string", "Read CommonMark from a UTF-8 file.") { $0.markdownFile = try $1.string() },
        define("spans", "json", .text, schema: "array", "The text as styled pieces: [{\"text\": \"...\", span keys...}, ...] (a JSON array; on the command line, its JSON text).") {
            // A JSON array, or its JSON text (a flag, a form field, a string value).
            var value: JSONValue = .null
            if case let .json(json) = $1, case .array = json { value = json } else {
                do { value = try JSONValue.parse(Array(try $1.string().utf8)) } catch { throw OptionError("is not JSON: \(error)") }
            }
            guard case let .array(items) = value else { throw OptionError("must be an array of span objects") }
            let schemes = $0.linkSchemes
            $0.spans = try items.enumerated().map { try SpanInput.parse($1, index: $0, linkSchemes: schemes) }
        },
        define("steps-markup", "bool", .steps, schema: "boolean", "The steps' texts are Pango markup.") { $0.stepsMarkup = try $1.bool() },
        define("weight", "100..1000|name", schema: "string|number", "Font weight: 100 to 1000 or a name (thin, light, normal, medium, semibold, bold, heavy...).") {
            $0.weight = try FontWeight(try $1.string()).value
        },
        define("style", "normal|italic|oblique", schema: "string", "Font style (a face without italics is slanted).") {
            $0.slant = try $1.choice(FontSlant.self)
        },
        define("stretch", "50..200|name", schema: "string|number", "Font width: a percentage (50 to 200) or a name (condensed, semi-condensed, normal, expanded...): a wdth axis or a face of that width.") {
            $0.stretch = try FontWidth(try $1.string()).value
        },
        define("font-family", "family", .span, schema: "string", "Font family alone (weight and style stay as they are).") {
            let text = try $1.string().trimmed
            guard !text.isEmpty else { throw OptionError("is empty") }
            guard text.utf8.count <= maxFontName else { throw OptionError("is longer than \(maxFontName) bytes") }
            $0.fontFamily = text
        },
        define("font-scale", "x", .span, schema: "number", "Size as a multiple of the size around the span (1.2 larger, 0.833 smaller).") {
            $0.fontScale = try $1.number(in: 0.01...100)
        },
        define("baseline-shift", "sub|super|px", .span, schema: "string|number", "Subscript, superscript (size and shift from the font), or a rise in px (down when negative).") {
            switch try $1.string().trimmed.lowercased() {
            case "sub", "subscript": $0.baselineShift = .sub
            case "super", "sup", "superscript": $0.baselineShift = .sup
            case "none", "0": $0.baselineShift = BaselineShift.none
            case let text:
                let number = text.hasSuffix("px") ? String(text.dropLast(2)) : text
                guard let v = Double(number.trimmed), v.isFinite, abs(v) <= 10_000 else { throw OptionError("'\(text)' is not sub, super or a rise in px") }
                $0.baselineShift = .rise(v)
            }
        },
        define("underline", "none|single|double|low|error", .span, schema: "string|boolean", "Underline, at the font's position and thickness.") {
            if case let .json(.bool(b)) = $1 { $0.underline = b ? .single : UnderlineStyle.none; return }
            let text = try $1.string().lowercased()
            $0.underline = text == "true" ? .single : text == "false" ? UnderlineStyle.none : try $1.choice(UnderlineStyle.self)
        },
        define("underline-color", "colour", .span, schema: "string", "Underline colour (default: the text's).") { $0.underlineColor = try $1.color() },
        define("strikethrough", "bool", .span, schema: "boolean", "A line through the text, at the font's strikeout position.") {
            $0.strikethrough = try $1.bool()
        },
        define("strikethrough-color", "colour", .span, schema: "string", "Strikethrough colour (default: the text's).") {
            $0.strikethroughColor = try $1.color()
        },
        define("link", "uri", .span, schema: "string", "A link: an annotation over the span's text in PDF output (http:, https:, mailto: or #name).") {
            $0.link = try LinkTarget(try $1.string(), schemes: $0.linkSchemes)
        },
        define("animation", "effect[,effect]", .span, schema: "string|object|array", "The span's effects in an animated card, on the card's clock as a block's are: \(Effect.allCases.filter { $0 != .restricted }.map(\.rawValue).joined(separator: ", ")), or effect objects; highlight-sweep grows the span's own highlight.") {
            let effects = try EffectSpec.list($1)
            if effects.contains(where: { $0.effect == .restricted }) {
                throw OptionError("restricted reveals a block's hidden lines; a span cannot have it")
            }
            $0.animation = effects
        },
        define("width", "px", .text, schema: "number", "Wrap width in px.") { $0.width = try positive(try $1.number()) },
        define("align", "left|center|right|start|end|justify", schema: "string", "Text alignment: left, center, right, start, end or justify (start/end follow each paragraph's direction; justify fills every line but a paragraph's last; default start, and in steps towards the dots).") {
            $0.align = try $1.choice(Alignment.self)
        },
        define("hyphenate", "bool", schema: "boolean", "Hyphenate long words with the dictionary of lang (Debian's hyphen-* packages) where that makes better lines.") {
            $0.hyphenate = try $1.bool()
        },
        define("hyphen-min", "L,R", schema: "string|array", "The shortest pieces a hyphenated word is cut into (default 2,3).") {
            let parts = try $1.list().map { try $0.integer() }
            guard parts.count == 2, parts.allSatisfy({ (1...20).contains($0) }) else { throw OptionError("is not L,R with whole numbers from 1 to 20") }
            $0.hyphenMin = (parts[0], parts[1])
        },
        define("wrap", "greedy|balance|pretty", schema: "string", "Line filling: greedy, balance (the same lines at the narrowest width, near-equal) or pretty (no one-word last line).") {
            $0.wrap = try $1.choice(WrapMode.self)
        },
        define("max-lines", "n", .text, schema: "integer", "Stop after N lines, the last ending with the ellipsis.") {
            let n = try $1.integer()
            guard n >= 1 else { throw OptionError("must be 1 or more, got \(n)") }
            $0.maxLines = n
        },
        define("ellipsis", "text", .text, schema: "string", "What ends a line cut by max-lines (default …).") {
            $0.ellipsis = try $1.string()
        },
        define("line-height", "px|x", schema: "string|number", "A fixed baseline distance: Npx, or a multiple of the font size; rows stay even whatever fonts a line falls back to.") {
            if case let .json(.number(n)) = $1 {
                $0.lineHeight = .em(try positive(n))
                return
            }
            let text = try $1.string().trimmed.lowercased()
            let isPx = text.hasSuffix("px")
            guard let value = Double((isPx ? String(text.dropLast(2)) : text).trimmed) else {
                throw OptionError("'\(text)' is not Npx or a multiple of the font size")
            }
            $0.lineHeight = isPx ? .px(try positive(value)) : .em(try positive(value))
        },
        define("letter-spacing", "px|Xem", schema: "string|number", "Tracking after every grapheme cluster (not inside cursive scripts such as Arabic); turns optional ligatures off.") {
            let length = try $1.length()
            guard abs(length.resolved(fontSize: 1)) <= maxLength else { throw OptionError("is too large") }
            $0.letterSpacing = length
        },
        define("word-spacing", "px|Xem", schema: "string|number", "Extra space after every space character.") {
            let length = try $1.length()
            guard abs(length.resolved(fontSize: 1)) <= maxLength else { throw OptionError("is too large") }
            $0.wordSpacing = length
        },
        define("paragraph-spacing", "px|Xem", schema: "string|number", "Extra space after each paragraph (a line break ends one), px or em (default 0).") {
            $0.paragraphSpacing = try nonNegativeLength($1)
        },
        define("indent", "px|Xem", schema: "string|number", "First-line indent of each paragraph, on its start side, px or em (default 0).") {
            $0.indent = try nonNegativeLength($1)
        },
        define("features", "list", schema: "string", "OpenType features in HarfBuzz syntax, e.g. \"liga=0,ss01,tnum\".") {
            do {
                $0.features = try FontFeatures(try $1.string())
            } catch let error as TypesetError {
                throw OptionError(error.description)
            }
        },
        define("variations", "list", schema: "string", "Variable-font axis values, e.g. \"wght=650,wdth=80\" (shaping and outlines).") {
            do {
                $0.variations = try FontVariations(try $1.string())
            } catch let error as TypesetError {
                throw OptionError(error.description)
            }
        },
        define("line-spacing", "x", schema: "number", "Baseline distance as a multiple of the natural line height.") {
            let v = try $1.number()
            guard v > 0, v <= TypesetStyle.maxLineSpacing else {
                throw OptionError("must be a positive number up to \(Int(TypesetStyle.maxLineSpacing)), got \(v)")
            }
            $0.lineSpacing = v
        },
        define("direction", "auto|ltr|rtl", schema: "string", "Base direction: auto (from the first strong character), ltr or rtl.") {
            $0.direction = try $1.choice(BaseDirection.self)
        },
        define("rtl", "bool", schema: "boolean", "Right-to-left base direction (same as direction rtl).") {
            if try $1.bool() { $0.direction = .rtl }
        },
        define("no-break-hyphen", "bool", schema: "boolean", "Cut a word longer than the line without a hyphen (default: with one, in scripts that hyphenate).") {
            $0.breakHyphens = !(try $1.bool())
        },
        define("role", "p|h1|h2|h3|h4|h5|h6|artifact", .text, schema: "string", "The text's element in a tagged PDF: a paragraph (p, the default), a heading of level 1 to 6 (pages: paragraphs starting with # are headings), or artifact: decoration a reader skips.") {
            $0.role = try $1.choice(StructureRole.self)
        },
        define("lang", "tag", schema: "string", "BCP 47 language for shaping and line breaking, e.g. ja.") {
            do { $0.lang = try LanguageTags.checked(try $1.string()) } catch let error as TypesetError { throw OptionError(error.description) }
        },
        define("color", "colour", schema: "string", "Text colour (default: black or white by contrast).") { $0.color = try $1.color() },
        define("highlight", "colour", schema: "string", "Highlight fill colour (alpha allowed); turns the highlight on.") {
            $0.highlight = try $1.color()
        },
        define("highlight-style", "fill|outline|both|none", schema: "string", "How the highlight is drawn (default: from the colours given).") {
            $0.highlightStyle = try $1.choice(HighlightMode.self)
        },
        define("outline-color", "colour", schema: "string", "Outline colour (default: the highlight colour, else black).") {
            $0.outlineColor = try $1.color()
        },
        define("outline-width", "px", schema: "number", "Outline width in px (default 2).") { $0.outlineWidth = try nonNegative(try $1.number()) },
        define("padding", "x[,y]", schema: "string|number|array", "Highlight padding around each line, px or em (default 0.3em,0.08em).") {
            let parts = try $1.list().map { try $0.length() }
            guard (1...2).contains(parts.count), !parts.contains(where: \.isNegative),
                  parts.allSatisfy({ $0.resolved(fontSize: 1) <= maxLength }) else {
                throw OptionError("is not X or X,Y with lengths from 0 to \(Int(maxLength)) (px, or em like 0.3em)")
            }
            $0.padding = parts
        },
        define("radius", "auto|px", schema: "string|number", "Corner radius in px, or auto (a quarter of the line height).") {
            if case .text = $1, try $1.string().lowercased() == "auto" { $0.radius = .auto; return }
            if case .json(.string("auto")) = $1 { $0.radius = .auto; return }
            $0.radius = .fixed(try nonNegative(try $1.number()))
        },
        define("join", "merged|separate", schema: "string", "merged: one shape per block; separate: a rounded pill per line.") {
            $0.join = try $1.choice(Join.self)
        },
        define("shadow", "dx,dy,blur,colour", schema: "string", "A text shadow: offset, blur (Gaussian sigma) and colour, e.g. 0,4,8,#00000080.") {
            let parts = try $1.list()
            guard parts.count == 4 else { throw OptionError("is not dx,dy,blur,colour") }
            let dx = try parts[0].number(), dy = try parts[1].number(), blur = try nonNegative(try parts[2].number())
            let color = try parts[3].color()
            // TextShadow checks the numbers; the option words its refusal as one rule.
            guard let shadow = try? TextShadow(dx: dx, dy: dy, blur: blur, color: color) else {
                throw OptionError("offsets must be within \(Int(maxLength)) px and the blur at most \(Int(Sigma.max))")
            }
            $0.shadow = shadow
        },
        define("stroke", "width,colour", schema: "string", "Glyph outlines stroked under the fill, e.g. 3,black.") {
            let parts = try $1.list()
            guard parts.count == 2 else { throw OptionError("is not width,colour") }
            $0.stroke = try TextStroke(width: try nonNegative(try parts[0].number()), color: try parts[1].color())
        },
        define("visible-lines", "n", .text, schema: "integer", "Keep the first N lines readable and blur the rest.") {
            let n = try $1.integer()
            guard n >= 0 else { throw OptionError("must be 0 or more, got \(n)") }
            $0.visibleLines = n
        },
        define("blur-radius", "px", .text, schema: "number", "Blur strength (Gaussian sigma, default 11, at most 200).") {
            let v = try nonNegative(try $1.number())
            guard v <= Sigma.max else { throw OptionError("\(v) is over the maximum of \(Int(Sigma.max)) px") }
            $0.blurRadius = v
        },
        define("restrict-mode", "scramble|blur", .text, schema: "string", "scramble (substitute glyphs) or blur (real glyphs under the blur).") {
            $0.restrictMode = try $1.choice(RestrictMode.self)
        },
        define("feather", "px", .text, schema: "number", "Height over which sharp turns into blurred (default 4).") {
            $0.feather = try nonNegative(try $1.number())
        },
        define("scramble-seed", "n", .text, schema: "integer", "Seed for the substitute glyphs (default: random per render).") {
            $0.scrambleSeed = try $1.seed()
        },
        (stepsRow, .steps),
        define("steps-file", "path", .steps, schema: "string", "Read the steps from a UTF-8 file, one per line.") { $0.stepsFile = try $1.string() },
        define("column", "px", .steps, schema: "number", "x of the dot column from the block's left edge (default: the block's centre; in steps, the block is the canvas inside --margin).") {
            $0.column = try nonNegative(try $1.number())
        },
        define("dot-size", "px", .steps, schema: "number", "Dot diameter (default 0.5em).") { $0.dotSize = try positive(try $1.number()) },
        define("dot-color", "colour", .steps, schema: "string", "Dot colour (default: contrasting the background).") { $0.dotColor = try $1.color() },
        define("gap", "px", .steps, schema: "number", "Space between a dot and its text (default 0.5em).") { $0.gap = try nonNegative(try $1.number()) },
        define("current", "k", .steps, schema: "integer", "The current step, from 1: earlier dots done, later ones hollow.") {
            let n = try $1.integer()
            guard n >= 1 else { throw OptionError("must be 1 or more, got \(n)") }
            $0.current = n
        },
        define("connector", "bool", .steps, schema: "boolean", "Draw a line through the dots.") { $0.connector = try $1.bool() },
        define("first-side", "left|right", .steps, schema: "string", "Side of the first step's text (default left; right for RTL).") {
            let text = try $1.string().lowercased()
            guard let side = Side(rawValue: text) else { throw OptionError("'\(text)' is not left or right") }
            $0.firstSide = side
        },
    ]
}
