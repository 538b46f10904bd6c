import Codecs
import Card
import Compare
import Foundation
import Render
import TestSupport
import Testing
import Typeset
import Support

let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

let engine = Engine(world: World(fonts: try! FontContext(library: Fixtures.library)) { path in
    guard let data = FileManager.default.contents(atPath: path) else { throw CardError("", "cannot read '\(path)'") }
    return [UInt8](data)
})

func parse(_ json: String, vars: [String: String] = [:]) throws -> CardSpec {
    try CardSpec.parse(try Variables.substitute(try JSONValue.parse(Array(json.utf8)), vars), folder: fixtureFolder, linkSchemes: LinkSchemes())
}

func build(_ json: String, vars: [String: String] = [:]) throws -> BuiltCard {
    try CardBuilder.build(try parse(json, vars: vars), engine: engine, job: Job(format: .png))
}

func png(_ json: String) throws -> RGBAImage {
    let card = try build(json)
    var options = RenderOptions()
    options.scale = card.scale
    return try PNGCodec.decode(try engine.renderer.render(card.scene, options: options))
}

/// Errors name the JSON path of what is wrong.
@Suite struct CardErrorTests {
    @Test(arguments: [
        (##"{"blocks": [{"type": "text", "text": "a", "highlight": "#GGG"}]}"##, "blocks[0].highlight: '#GGG' is not a colour"),
        (##"{"blocks": [{"type": "text", "text": "a", "fit": {"height": 0}}]}"##, "blocks[0].fit.height: must be a positive number"),
        (##"{"blocks": [{"type": "text", "text": "a", "hightlight": "red"}]}"##, "blocks[0].hightlight: unknown key; did you mean 'highlight'?"),
        (##"{"blocks": [{"type": "text", "text": "a"}, {"type": "image"}]}"##, "blocks[1].src: is missing"),
        (##"{"blocks": [{"type": "stack", "blocks": [{"type": "text", "text": "a", "size": -4}]}]}"##, "blocks[0].blocks[0].size: must be between 0.01 and 10000 px, got -4.0"),
        (##"{"blocks": [{"type": "text", "text": "a", "anchor": "middle"}]}"##, "blocks[0].anchor: 'middle' is not one of top-left"),
        (##"{"blocks": [{"type": "circle"}]}"##, "blocks[0].type: 'circle' is not text, steps, image or stack"),
        (##"{"background": {"gradient": {"stops": ["red"]}}, "blocks": []}"##, "background.gradient.stops: must list two or more colours"),
        (##"{"background": {"image": "x.png", "dim": 2}, "blocks": []}"##, "background.dim: must be a number from 0 to 1, got 2"),
        (##"{"size": "wide", "blocks": []}"##, "size: 'wide' is not \"WIDTHxHEIGHT\""),
        (##"{"colour": "red", "blocks": []}"##, "colour: unknown key; did you mean 'color'?"),
        // A span's key on the card would style nothing: refused, not dropped.
        (##"{"underline": true, "blocks": [{"type": "text", "text": "a"}]}"##, "underline: styles a span only"),
        (##"{"link": "https://example.org", "blocks": [{"type": "text", "text": "a"}]}"##, "link: styles a span only"),
        (##"{"font-family": "Noto Sans", "blocks": [{"type": "text", "text": "a"}]}"##, "font-family: styles a span only"),
        (##"{"blocks": [{"type": "text", "text": "a", "underline": "single"}]}"##, "blocks[0].underline: unknown key"),
        (##"{"font": "Noto Sans"}"##, "blocks: is missing"),
        // Absurd numbers are refused before they reach the layout or Cairo.
        (##"{"blocks": [{"type": "text", "text": "a", "fit": {"height": 10, "min-size": 1e-300}}]}"##, "blocks[0].fit.min-size: must be between 0.01"),
        (##"{"blocks": [{"type": "text", "text": "a", "padding": "1e300em"}]}"##, "blocks[0].padding: is not X or X,Y with lengths from 0"),
        (##"{"blocks": [{"type": "text", "text": "a", "outline-width": 1e300}]}"##, "blocks[0].outline-width: must be at most 1000000"),
        (##"{"blocks": [{"type": "text", "text": "a", "shadow": "1e300,0,2,red"}]}"##, "blocks[0].shadow: offsets must be within"),
        (##"{"blocks": [{"type": "image", "src": "a.png", "offset": [1e300, 0]}]}"##, "blocks[0].offset: must be within"),
    ])
    func specErrorsNameTheirPath(json: String, message: String) throws {
        do {
            _ = try parse(json)
            Issue.record("no error for \(json)")
        } catch let error as CardError {
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    /// The span-only keys: not in the schema as card or block keys (the parser refuses them
    /// there), and documented as spans only.
    @Test func spanKeysAreOfferedOnlyWhereTheyAreTaken() throws {
        let spanOnly = OptionModel.all.map(\.name).filter { OptionModel.scope(of: $0) == .span }
        #expect(spanOnly.count >= 8, "\(spanOnly)")
        let schema = CardSchema.json().serialized()
        // `animation` is a span key and a placement key of every block (its own row there).
        let placement = Set(BlockSpec.placementOptions.map(\.name))
        let textBlock = CardSchema.json()["$defs"]?["text"]?["properties"]
        #expect(spanOnly.contains("animation") && textBlock?["animation"]?["$ref"] == .string("#/$defs/animation"))
        for key in spanOnly {
            if !placement.contains(key) { #expect(!schema.contains("\"\(key)\":"), "\(key) is offered by the schema") }
            #expect(!OptionModel.names(for: .text).contains(key) && !OptionModel.names(for: .steps).contains(key))
            #expect(OptionModel.names(for: .span).contains(key))
        }
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(throws: JSONSyntaxError(line: 2, column: 10, message: "expected ',' or '}'")) {
            try JSONValue.parse(Array("{\"a\": 1,\n  \"b\": 2 \"c\": 3}".utf8))
        }
    }

    @Test func anUnfilledVariableIsNamed() {
        #expect(throws: CardError("blocks[0].text", "variable {{name}} has no value", missingVariable: "name")) {
            try parse(##"{"blocks": [{"type": "text", "text": "Hi {{name}}"}]}"##)
        }
    }

    @Test func layoutErrorsNameTheBlock() {
        #expect(throws: CardError.self) {
            try build(##"{"blocks": [{"type": "image", "src": "missing.png"}]}"##)
        }
        do {
            _ = try build(##"{"size": "400x400", "blocks": [{"type": "text", "text": "many words that cannot fit", "size": 80, "fit": {"height": 20, "min-size": 60}}]}"##)
        } catch let error as CardError {
            #expect(error.path == "blocks[0].fit" && error.message.contains("does not fit"), "\(error)")
        } catch { Issue.record("\(error)") }
    }
}

/// `{{name}}` is filled after parsing, once.
@Suite struct VariableTests {
    @Test func valuesWithQuotesBracesAndNewlinesStayLiteral() throws {
        let value = "He said \"hi\" {{x}} }}\nnext"
        let card = try build(##"{"blocks": [{"type": "text", "text": "{{title}}!"}]}"##, vars: ["title": value])
        guard case let .text(text) = card.scene.items[0] else { Issue.record("not text"); return }
        #expect(text.layout.text == value + "!")
    }
}

@Suite struct OptionModelTests {
    /// The long options of `render` and `steps` that set how a block's text looks: each is a
    /// key of the option table, and each key of the table is such an option.
    @Test func everyBlockOptionIsAFlagAndAKey() throws {
        let flags = { (command: String) throws -> Set<String> in
            let result = try CLI.run([command, "--help"], pinnedFonts: false)
            let help = String(decoding: result.stdout, as: UTF8.self)
            let names = help.split(whereSeparator: { " ,=\n[]<>()".contains($0) })
                .filter { $0.hasPrefix("--") && $0.count > 2 && $0 == $0.lowercased() }
            return Set(names.map { String($0.dropFirst(2)) })
        }
        // Options about the run (files, canvas, comparison), not a block's look.
        let runOptions: Set<String> = ["output", "format", "background", "margin", "canvas", "scale", "max-pixels", "dump-layout",
                                       "font-dir", "no-system-fonts", "font-strict", "alt", "no-alt", "expect", "threshold", "count-aa", "max-diff-pixels",
                                       "max-diff-ratio", "ignore", "metric", "min-ssim", "dpi", "no-tags", "pdf-standard", "diff", "json", "size-mismatch", "max-input-bytes", "link-schemes", "help",
                                       "version", "step", "fit", "png-compression", "quality", "lossless", "avif-speed", "avif-chroma", "title", "author", "subject", "keywords",
                                       // Pages: the document's, not a block's.
                                       "page", "page-margin", "orphans", "widows", "page-numbers", "page-number-format", "header", "max-pages",
                                       // Animation: the block's placement row and the card's clock.
                                       "animation", "fps", "duration", "loop"]
        let render = try flags("render").subtracting(runOptions), steps = try flags("steps").subtracting(runOptions)
        let textKeys = Set(OptionModel.names(for: .text)), stepsKeys = Set(OptionModel.names(for: .steps))
        #expect(render.subtracting(textKeys).isEmpty, "render flags missing from the table: \(render.subtracting(textKeys))")
        #expect(textKeys.subtracting(render).isEmpty, "table keys render lacks: \(textKeys.subtracting(render))")
        // Steps reads the steps (--step, --steps-file) and has no wrap width of its own.
        let expectedSteps = stepsKeys.subtracting(["steps"])
        #expect(expectedSteps.subtracting(steps).isEmpty, "table keys steps lacks: \(expectedSteps.subtracting(steps))")
    }

    @Test func theCommittedSchemaIsTheGeneratedOne() throws {
        let committed = try String(contentsOfFile: Fixtures.repo.appendingPathComponent("schema/card.schema.json").path, encoding: .utf8)
        #expect(committed == CardSchema.json().serialized() + "\n", "run: hlrender card --schema > schema/card.schema.json")
    }

    @Test func everySchemaPropertyIsAccepted() throws {
        // Each block property of the schema, with a sample value of its type, parses.
        let schema = CardSchema.json()
        guard case let .object(defs)? = schema["$defs"] else { Issue.record("no $defs"); return }
        let samples: [String: String] = ["string": "\"1\"", "number": "1", "integer": "1", "boolean": "true", "array": "[\"1\"]"]
        for (kind, def) in defs where ["text", "steps"].contains(kind) {
            guard case let .object(properties)? = def["properties"] else { continue }
            for (key, property) in properties where !["type", "anchor", "offset", "fit"].contains(key) {
                var type = "string"
                if case let .string(t)? = property["type"] { type = t }
                if case let .array(types)? = property["type"], case let .string(t) = types[0] { type = t }
                var value = samples[type]!
                let special: [String: String] = ["align": "\"left\"", "direction": "\"rtl\"", "color": "\"red\"", "highlight": "\"red\"",
                    "outline-color": "\"red\"", "dot-color": "\"red\"", "highlight-style": "\"fill\"", "join": "\"separate\"",
                    "restrict-mode": "\"blur\"", "shadow": "\"1,2,3,red\"", "stroke": "\"1,red\"", "first-side": "\"right\"",
                    "radius": "4", "padding": "4", "wrap": "\"balance\"", "variations": "\"wght=500\"", "role": "\"h2\"", "hyphen-min": "\"2,3\"", "features": "\"liga=0\"", "font": "\"Noto Sans\"", "visible-lines": "1",
                    "spans": "[{\"text\": \"b\", \"weight\": 700}]", "style": "\"italic\"", "stretch": "\"condensed\"", "animation": "\"fade\""]
                value = special[key] ?? value
                let required = kind == "text" ? "\"text\": \"a\"" : "\"steps\": [\"a\"]"
                let json = "{\"blocks\": [{\"type\": \"\(kind)\", \(required), \"\(key)\": \(value)}]}"
                #expect(throws: Never.self, "\(kind).\(key)") { _ = try parse(json) }
            }
        }
    }
}
