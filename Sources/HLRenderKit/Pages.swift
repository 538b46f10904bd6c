import Card
import Pages
import Render
import Support

/// How `HLRenderer.renderPages` reads its text.
public enum PageTextFormat: Sendable {
    /// Plain text: a line feed ends a paragraph (`hlrender render --text`).
    case plain
    /// Pango markup (`--markup`).
    case markup
    /// CommonMark (`--markdown`): headings, lists, quotes, code, links and pictures, each
    /// tagged; a picture's path is read through the environment's `readFile` as written.
    case markdown
}

extension HLRenderer {
    /// Flows `text` over PDF pages (`hlrender render --page`), read as `format`. `options` is
    /// a JSON object of the same names as the CLI's long flags: the page options (`page`,
    /// `page-margin`, `orphans`, `widows`, `header`, `page-numbers`, ...), `background`, and
    /// any text block option (`font`, `size`, `highlight`, ...). `page` defaults to A4. The
    /// PDF is tagged unless `tagged` is false, and conforms to `standards`.
    public func renderPages(text: String, format: PageTextFormat = .plain, options: String = "{}", title: String? = nil,
                            tagged: Bool = true, standards: Set<PDFConformance> = []) async throws(HLRenderError) -> [UInt8] {
        let members: [(String, JSONValue)]
        do {
            guard case let .object(object) = try JSONValue.parse(Array(options.utf8)) else {
                throw HLRenderError(.input, "the page options must be a JSON object")
            }
            members = object
        } catch {
            throw HLRenderError.from(error)
        }
        var setup = PageSetup(size: .a4)
        setup.spoolFolder = environment.temporaryDirectory
        var settings = BlockSettings()
        settings.linkSchemes = engine.world.linkSchemes
        var background = Color.white
        for (key, value) in members {
            do {
                if key == "background" {
                    background = try CardSpec.colorBackground(.json(value))
                } else if let option = PageSetup.options.named(key) {
                    try option.apply(.json(value), to: &setup)
                } else if let option = OptionModel.named(key), OptionModel.scope(of: key) != .steps, key != "text-file" {
                    try option.apply(.json(value), to: &settings)
                } else {
                    throw OptionError("is not a page or text option")
                }
            } catch {
                throw HLRenderError(.input, path: key + ((error as? OptionError)?.subpath ?? ""),
                                    (error as? OptionError)?.reason ?? "\(error)")
            }
        }
        let key = switch format { case .plain: "text"; case .markup: "markup"; case .markdown: "markdown" }
        try OptionModel.named(key)!.applyChecked(.json(.string(text)), to: &settings)
        var encode = Render.RenderOptions()
        encode.format = .pdf
        encode.maxPixels = environment.maxPixels
        encode.pdf = metadata(title: title, tagged: tagged, standards: standards)
        encode.pdf.created = engine.world.clock?()
        if let unmet = encode.pdf.unmetRequirement() { throw HLRenderError(.input, path: "pdf-standard", unmet) }
        let prepared = (setup, settings, background, encode)
        let world = engine.world
        return try await run { cancellation in
            let document = try PagedPDF(settings: prepared.1, setup: prepared.0, fonts: world.fonts, background: prepared.2,
                                        randomSeed: world.random, checkFontFile: world.checkFontFile) { path in
                try RasterImage(decoding: try world.readFile(path), maxPixels: world.maxPixels)
            }
            var options = prepared.3
            options.cancellation = cancellation
            return try document.render(options: options)
        }
    }
}

extension OptionDefinition {
    /// Applies a value, a refusal as an input error at the option's name.
    func applyChecked(_ input: OptionInput, to target: inout Target) throws(HLRenderError) {
        do {
            try apply(input, to: &target)
        } catch {
            throw HLRenderError(.input, path: name, (error as? OptionError)?.reason ?? "\(error)")
        }
    }
}
