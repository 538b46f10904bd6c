import Render
import Motion
import Support
import PDFPost

extension CardSpec {
    /// The `size` row, for what reads it alone.
    package static let sizeRow = OptionDefinition<CardSpec>("size", "WxH", schema: "string|array", "WIDTHxHEIGHT in px, default 1080x1920; a side given as auto (or size auto) is fitted to the blocks plus padding.") {
        ($0.width, $0.height) = try size($1)
    }

    /// The `scale` row, for what reads it alone.
    package static let scaleRow = OptionDefinition<CardSpec>("scale", "1|2|3", schema: "number", "Output pixels per layout pixel (@2x, @3x), the layout unchanged.") {
        let s = try $1.number()
        guard scales.contains(s) else { throw OptionError("must be 1, 2 or 3, got \(Checked.describe(s))") }
        $0.scale = s
    }

    /// The `padding` row, for what reads it alone.
    package static let paddingRow = OptionDefinition<CardSpec>("padding", "px", schema: "number", "Inset of the anchors from the canvas edges, default 64.") {
        $0.padding = try $1.number(in: 0...Checked.maxLength)
    }

    /// The `background` row, for what reads it alone.
    package static let backgroundRow = OptionDefinition<CardSpec>("background", "colour", schema: "string|object",
        "The canvas: a colour (alpha allowed) or transparent; in a spec also {\"gradient\": {\"angle\", \"stops\"}} or {\"image\": path, \"fit\", \"blur\", \"dim\"} (default white; render and steps: transparent under a filled highlight, so the caption is an overlay).") {
        // A flag or a form field gives text: a colour. JSON may give the objects too; any
        // other JSON value reads as the text it would be on a command line.
        var json = JSONValue.null
        if case let .json(value) = $1, case .object = value { json = value } else { json = .string(try $1.string()) }
        do {
            $0.background = try background(json, path: "")
        } catch let error as CardError {
            throw OptionError(error.message, at: error.path)
        }
    }

    /// The `output` row, for what reads it alone.
    package static let outputRow = OptionDefinition<CardSpec>("output", "path", schema: "string", "Where a batch writes the card (relative to its output folder).") {
        $0.output = try $1.string()
    }

    /// The `pdf` row, for what reads it alone.
    package static let pdfRow = OptionDefinition<CardSpec>("pdf", "object", schema: "object", """
        The card's PDF settings, keys of the PDF options (title, author, subject, keywords, no-tags, pdf-standard); \
        flags and library settings given by the caller win, standards add up.
        """) {
        guard case let .json(.object(members)) = $1 else { throw OptionError("must be an object of PDF options (title, pdf-standard, ...)") }
        for (key, value) in members {
            guard let option = PDFMetadata.options.named(key) else {
                throw OptionError("unknown key (PDF options: \(PDFMetadata.options.map(\.name).joined(separator: ", ")))", at: key)
            }
            do { try option.apply(.json(value), to: &$0.pdf) } catch let error as OptionError { throw OptionError(error.reason, at: key) }
        }
    }

    /// The card-level options (a spec's top-level keys; `scale`, and `size` and `padding` as the
    /// CLI's --canvas and --margin), defined once.
    package static let options: [OptionDefinition<CardSpec>] = [
        sizeRow, scaleRow, paddingRow, backgroundRow, outputRow, pdfRow,
    ] + AnimationTiming.options.map { $0.within(\.timing) }

    /// The `background` row read into a plain colour, for what takes no gradient or picture (a
    /// page, a one-block canvas): a refusal is the row's `OptionError`.
    package static func colorBackground(_ input: OptionInput) throws -> Color {
        var probe = CardSpec()
        try backgroundRow.apply(input, to: &probe)
        guard case let .color(color) = probe.background else { throw OptionError("must be a colour here (no gradient or picture)") }
        return color
    }

    /// "WIDTHxHEIGHT" or [width, height]; either side may be "auto" (fitted to the content),
    /// and "auto" alone fits both.
    static func size(_ input: OptionInput) throws -> (Double?, Double?) {
        var sides: [String] = []
        if case let .json(.array(items)) = input, items.count == 2 {
            sides = try items.map { try OptionInput.json($0).string() }
        } else if let text = try? input.string() {
            sides = text.lowercased() == "auto" ? ["auto", "auto"] : text.lowercased().split(separator: "x").map(String.init)
        }
        let values = sides.map { side -> Double?? in
            let text = side.trimmed.lowercased()
            if text == "auto" { return .some(nil) }
            guard let v = Double(text), v.isFinite, v > 0, v <= maxSide else { return nil }
            return .some(v)
        }
        guard values.count == 2, let width = values[0], let height = values[1] else {
            let given = (try? input.string()).map { "'\($0)' is not" } ?? "must be"
            throw OptionError("\(given) \"WIDTHxHEIGHT\" (like \"1080x1920\"), [width, height] with positive numbers up to \(Int(maxSide)), or auto for a side fitted to the content")
        }
        return (width, height)
    }
}
