import Foundation
import Render
import TestSupport
import Testing

private let hostile = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/hostile-svg")
private let logo = Fixtures.repo.appendingPathComponent("examples/assets/check-logo.svg")

/// SVG pictures in cards (logos, icons), rasterised by librsvg at the size they take, and the
/// one guard in front of it.
@Suite struct SVGPictureTests {
    let dir: URL
    init() throws {
        dir = try CLI.scratchFolder()
        try FileManager.default.copyItem(at: logo, to: dir.appendingPathComponent("logo.svg"))
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func card(_ src: String, width: Int? = 160) throws -> String {
        let size = width.map { #", "width": \#($0)"# } ?? ""
        let spec = ##"{"size": "600x400", "background": "#1B1B3A", "blocks": [{"type": "stack", "gap": 24, "blocks": ["##
            + #"{"type": "image", "src": "\#(src)"\#(size), "alt": "Checkmark logo"}, "#
            + #"{"type": "text", "text": "Vector logos on cards", "color": "white", "size": 40}]}]}"#
        let file = path("card-\(src).json")
        try Data(spec.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The logo card as PNG (its own golden: drawn at the card's scale, not stretched), and as
    /// PDF and SVG, which show the same picture (poppler and rsvg-convert read them back) and
    /// keep it as paths: the PDF holds no image.
    @Test func aLogoCardRendersInEveryFormat() throws {
        let spec = try card("logo.svg")
        for ext in ["png", "pdf", "svg"] {
            let result = try CLI.run(["card", spec, "-o", path("logo.\(ext)")])
            #expect(result.status == 0, "\(ext): \(result.stderr)")
        }
        try Golden.check(Array(try Data(contentsOf: URL(fileURLWithPath: path("logo.png")))), area: "cards", name: "svg-logo")
        #expect(try Self.pdfImages(path("logo.pdf")) == 0, "the logo is an image in the PDF")
        #expect(try runTool("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", path("logo.pdf"), path("from-pdf")]).status == 0)
        #expect(try runTool("/usr/bin/rsvg-convert", [path("logo.svg"), "-o", path("from-svg.png")]).status == 0)
        for other in ["from-pdf.png", "from-svg.png"] {
            let compared = try CLI.run(["compare", path("logo.png"), path(other), "--max-diff-ratio", "0.005"])
            #expect(compared.status == 0, "\(other): \(String(decoding: compared.stdout, as: UTF8.self))")
        }
        // @2x draws the picture from its vectors at twice the pixels.
        let spec2 = String(decoding: try Data(contentsOf: URL(fileURLWithPath: spec)), as: UTF8.self)
            .replacingOccurrences(of: #""size": "600x400""#, with: #""size": "600x400", "scale": 2"#)
        try Data(spec2.utf8).write(to: URL(fileURLWithPath: path("card2.json")))
        #expect(try CLI.run(["card", path("card2.json"), "-o", path("logo2.png")]).status == 0)
    }

    /// `pdfimages -list`'s rows: the images a PDF holds.
    static func pdfImages(_ file: String) throws -> Int {
        try runTool("/usr/bin/pdfimages", ["-list", file]).output.split(separator: "\n").count - 2
    }

    /// A picture whose drawing holds an image (a data: PNG) cannot be replayed as paths: in a
    /// PDF it is an image, and still the same picture.
    @Test func aPictureWithAnEmbeddedImageFallsBackToPixels() throws {
        let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#2060C0"/>"##
            + #"<image x="10" y="10" width="20" height="20" href="data:image/png;base64,"#
            + #"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="/></svg>"#
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path("mixed.svg")))
        let spec = try card("mixed.svg")
        for ext in ["png", "pdf"] {
            let result = try CLI.run(["card", spec, "-o", path("mixed.\(ext)")])
            #expect(result.status == 0, "\(ext): \(result.stderr)")
        }
        #expect(try Self.pdfImages(path("mixed.pdf")) >= 1)
        #expect(try runTool("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", path("mixed.pdf"), path("mixed-pdf")]).status == 0)
        let compared = try CLI.run(["compare", path("mixed.png"), path("mixed-pdf.png"), "--max-diff-ratio", "0.005"])
        #expect(compared.status == 0, "\(String(decoding: compared.stdout, as: UTF8.self))")
    }

    /// A picture drawn larger than the canvas (zoomed in, pushed past two edges) is rasterised
    /// only where the canvas shows it, and shows there what librsvg draws of the whole picture
    /// at that size: rsvg-convert's 1200 px drawing, cut at the same place, is the reference.
    /// A picture wholly off the canvas draws nothing.
    @Test func aPictureLargerThanTheCanvasIsDrawnWhereTheCanvasShowsIt() throws {
        let spec = ##"{"size": "400x300", "padding": 0, "background": "#FFFFFF", "blocks": ["##
            + #"{"type": "image", "src": "logo.svg", "width": 1200, "anchor": "top-left", "offset": [-300, -200]}, "#
            + #"{"type": "image", "src": "logo.svg", "width": 300, "anchor": "top-left", "offset": [900, 900]}]}"#
        try Data(spec.utf8).write(to: URL(fileURLWithPath: path("zoom.json")))
        let result = try CLI.run(["card", path("zoom.json"), "-o", path("zoom.png")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try runTool("/usr/bin/rsvg-convert", ["-w", "1200", path("logo.svg"), "-o", path("whole.png")]).status == 0)
        let crop = """
            import sys
            from PIL import Image
            whole = Image.open(sys.argv[1]).convert("RGBA")
            ground = Image.new("RGBA", whole.size, (255, 255, 255, 255))
            ground.alpha_composite(whole)
            ground.crop((300, 200, 700, 500)).convert("RGB").save(sys.argv[2])
            """
        #expect(try runTool("/usr/bin/python3", ["-c", crop, path("whole.png"), path("window.png")]).status == 0)
        let compared = try CLI.run(["compare", path("zoom.png"), path("window.png"), "--max-diff-ratio", "0.002", "--threshold", "0.05"])
        #expect(compared.status == 0, "\(String(decoding: compared.stdout, as: UTF8.self))")
    }

    @Test(arguments: ["css-import", "deep", "entities", "external-file", "external-url", "huge-size", "huge-viewbox",
                      "not-xml", "use-bomb", "use-loop", "xinclude", "ebcdic"])
    func aHostilePictureIsRefused(name: String) throws {
        try FileManager.default.copyItem(at: hostile.appendingPathComponent("\(name).svg"), to: dir.appendingPathComponent("\(name).svg"))
        let result = try CLI.run(["card", try card("\(name).svg", width: nil), "-o", path("\(name).png")])
        #expect(result.status == 3, "\(name): \(result.stderr)")
        #expect(result.stderr.hasPrefix("hlrender: error: ") && result.stderr.contains("'\(name).svg'"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("\(name).png")))
    }
}

/// The replay's reader of librsvg's CairoScript: what it does not understand ends the reading.
/// The svgcheck fuzzer found `/ >` looping for ever: a bare `/` named the empty word, and a lone
/// `>` then read as that word without moving on (Tests/FuzzRegressions/svgcheck/empty-word-loop).
@Suite struct VectorScriptTests {
    @Test func loneDelimitersAndBareSlashesAreRefused() {
        for script in ["1 1 m / > l", "n >", "n <", "n }", "/ 1 def", "n 1 1 m 2 2 l h fill"] {
            let picture = VectorPicture(script: script, width: 10, height: 10)
            #expect((picture == nil) == (script != "n 1 1 m 2 2 l h fill"), "\(script)")
        }
    }
}
