import Batch
import Card
import Goldens
import FoundationEssentials
import HTTPForms
import Markup
import Render
import Support
import Typeset

/// The Swift harnesses: each takes any bytes and may only return (an error is a fine answer;
/// a crash, a hang or a sanitizer report is a finding).
enum Harness: String, CaseIterable {
    case card, manifest, typeset, forms, markup, pdflinks, pdfcontent, cardmemory, goldenconfig, svgcheck, geometry, animation

    /// The repository's pinned fonts (the harness is built from the repository).
    static let fonts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fonts").path

    static let engine: Engine = {
        let library = try! FontLibrary(directories: [fonts], includeSystemFonts: false)
        // Small canvases keep each input fast; no file is ever read.
        return Engine(world: World(fonts: try! FontContext(library: library), maxPixels: 300_000) { path in
            throw CardError("src", "no files while fuzzing: \(path)")
        })
    }()

    /// What a process loads once (the fonts, each language's hyphenation dictionary: de-CH's
    /// takes seconds under ASan) is loaded before the first input, so it is not timed as one.
    static func warmUp() {
        _ = engine
        for language in languages { _ = engine.world.library.hyphenation.available(language) }
    }

    static let languages = ["", "en", "ar", "ja", "hi", "de-CH", "zh-Hant"]

    func run(_ data: [UInt8]) {
        switch self {
        case .card: Harness.card(data)
        case .manifest: Harness.manifest(data)
        case .typeset: Harness.typeset(data)
        case .forms: Harness.forms(data)
        case .markup: Harness.markup(data)
        case .pdflinks: Harness.pdfLinks(data)
        case .pdfcontent: Harness.pdfContent(data)
        case .cardmemory: Harness.cardMemory(data)
        case .goldenconfig: Harness.goldenConfig(data)
        case .svgcheck: Harness.svgCheck(data)
        case .geometry: Harness.geometry(data)
        case .animation: Harness.animation(data)
        }
    }

    /// JSON -> card spec -> layout -> PNG, with and without variables.
    static func card(_ data: [UInt8]) {
        guard let json = try? JSONValue.parse(data), case .object = json else { return }
        _ = try? engine.render(json, variables: ["name": "Ada {{x}}", "x": "<b>"], folder: "/nonexistent", job: Job(format: .png))
    }

    /// Any bytes as Pango markup: parsed, then rendered as a card's text block (attribute
    /// values through the option table, nested spans laid out and painted), and as steps.
    static func markup(_ data: [UInt8]) {
        let source = String(decoding: data, as: UTF8.self)
        guard (try? Markup.parse(source)) != nil else { return }
        let block = JSONValue.object([("type", .string("text")), ("markup", .string(source)), ("width", .number(180)),
                                      ("max-lines", .number(Double(1 + data.count % 5)))])
        let steps = JSONValue.object([("type", .string("steps")), ("steps", .array([.string(source), .string("<b>b</b>")])),
                                      ("steps-markup", .bool(true))])
        for spec in [block, steps] {
            let card = JSONValue.object([("size", .string("200x120")), ("blocks", .array([spec]))])
            _ = try? engine.render(card, variables: [:], folder: "/nonexistent", job: Job(format: .png))
        }
    }

    /// CARDS.jsonl, and the same bytes as a template's CSV and JSONL data.
    static func manifest(_ data: [UInt8]) {
        _ = try? BatchManifest.cards(data, name: "cards.jsonl")
        let template = JSONValue.object([("size", .string("200x100")), ("blocks", .array([.object([("type", .string("text")), ("text", .string("{{a}}"))])]))])
        for name in ["rows.csv", "rows.jsonl"] {
            _ = try? BatchManifest.template(template, data: data, dataName: name, pattern: "{{a}}-{{b}}.png")
        }
    }

    /// Random Unicode from a palette of hard cases, laid out with settings from the first bytes.
    static func typeset(_ data: [UInt8]) {
        guard data.count >= 6 else { return }
        let settings = Array(data.prefix(6)), body = data.dropFirst(6)
        var scalars = String.UnicodeScalarView()
        var bytes = body.makeIterator()
        while let a = bytes.next() {
            let b = bytes.next() ?? 0
            let range = palette[Int(a) % palette.count]
            if let scalar = Unicode.Scalar(range.lowerBound + UInt32(b) % UInt32(range.count)) { scalars.append(scalar) }
        }
        var style = TypesetStyle(size: 6 + Double(settings[0] % 90), width: settings[1] < 16 ? nil : Double(settings[1]) * 2,
                                 alignment: Alignment.allCases[Int(settings[2]) % Alignment.allCases.count],
                                 lineSpacing: 0.5 + Double(settings[3] % 8) / 4,
                                 direction: BaseDirection.allCases[Int(settings[4]) % BaseDirection.allCases.count],
                                 language: languages[Int(settings[5]) % languages.count])
        style.wrap = WrapMode.allCases[Int(settings[2] / 8) % WrapMode.allCases.count]
        style.hyphenate = settings[3] & 0x80 != 0
        style.maxLines = settings[4] & 0x80 != 0 ? 1 + Int(settings[4] % 4) : nil
        style.letterSpacing = settings[5] & 0x80 != 0 ? Double(settings[0] % 7) - 2 : 0
        if settings[5] & 0x40 != 0 { style.features = (try? FontFeatures("liga=0,kern=0,smcp")) ?? .none }
        let typesetter = Typesetter(library: engine.world.library, font: FontSpec(family: "Noto Sans"))
        let text = String(scalars)
        guard let whole = try? typesetter.layout(text, style: style) else { return }
        // A long text's layouts shape by words from a cache (kept across inputs here, so a
        // word cached from one input meets the next): the lines must be the same.
        if (try? typesetter.layout(text, style: style, words: words))?.lines != whole.lines {
            fatalError("the word-shaped layout differs from the whole-run one")
        }
    }

    static let words = WordShapers()

    /// Where text breaks: letters, spaces and hard breaks, bidi controls, marks, several
    /// scripts, emoji with joiners, selectors and modifiers.
    static let palette: [ClosedRange<UInt32>] = [
        0x61...0x7A, 0x20...0x20, 0x20...0x2F, 0x0A...0x0D, 0x2028...0x2029, 0x200B...0x200F, 0x202A...0x202E,
        0x2066...0x2069, 0x0300...0x036F, 0x0591...0x05F4, 0x0600...0x06FF, 0x0900...0x097F, 0x3040...0x30FF,
        0x4E00...0x4E80, 0xAC00...0xAC40, 0x1F600...0x1F64F, 0x1F3FB...0x1F3FF, 0x200D...0x200D, 0xFE0E...0xFE0F,
        0x1F1E6...0x1F1FF, 0xAD...0xAD, 0x00A0...0x00FF, 0xFFF9...0xFFFD, 0x10FFF0...0x10FFFD, 0xE000...0xE010,
        0x0370...0x03FF, 0x0400...0x04FF,
    ]

    /// Multipart bodies under a boundary from the first bytes, and query strings.
    static func forms(_ data: [UInt8]) {
        let split = data.first.map { Int($0) % max(1, data.count) } ?? 0
        let header = String(decoding: data.prefix(split), as: UTF8.self)
        if let boundary = Multipart.boundary(contentType: "multipart/form-data; boundary=" + header) {
            _ = try? Multipart.parse(Array(data.dropFirst(split)), boundary: boundary)
        }
        _ = try? Multipart.parse(data, boundary: "xYz")
        _ = try? QueryString.fields(String(decoding: data, as: UTF8.self))
    }
}
