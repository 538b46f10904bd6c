import Foundation
import TestSupport
import Testing

private let examples = Fixtures.repo.appendingPathComponent("examples")
private let exampleVars = ["--var", "quote=A highlight should hug every line and never leave a seam", "--var", "author=Sei Shōnagon",
                           "--var", "name=Ana <Lima>", "--var", "price=$9.99"]

/// Outputs beyond PNG hold the same picture: each is decoded by a program that is not
/// hlrender (rsvg-convert for SVG) and compared with the PNG of the same card by hlrender's
/// comparator, within a golden's tolerance: at most 0.2 % of pixels past the default
/// threshold (glyph edges are anti-aliased by another rasteriser).
@Suite struct OutputFormatsTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Renders `arguments` as PNG and as `ext`, decodes the latter with `decode` (input,
    /// output PNG) and compares the two.
    func expectSamePicture(_ arguments: [String], ext: String, name: String,
                           decode: (String, String) throws -> Int32) throws {
        for format in ["png", ext] {
            let result = try CLI.run(arguments + ["-o", path("\(name).\(format)")])
            #expect(result.status == 0, "\(name).\(format): \(result.stderr)")
        }
        #expect(try decode(path("\(name).\(ext)"), path("\(name)-\(ext).png")) == 0, "\(name): the \(ext) was not decoded")
        let compared = try CLI.run(["compare", path("\(name).png"), path("\(name)-\(ext).png"), "--max-diff-ratio", "0.002"])
        #expect(compared.status == 0, "\(name).\(ext) differs from its PNG: \(String(decoding: compared.stdout, as: UTF8.self)) \(compared.stderr)")
    }

    static let cards = ["quote-photo", "headline-gradient", "steps-card", "rtl-card", "rich-card", "wrap-modes"]

    @Test(arguments: cards) func svgOfAnExampleCardIsItsPNG(name: String) throws {
        try expectSamePicture(["card", examples.appendingPathComponent("\(name).json").path] + exampleVars, ext: "svg", name: name) {
            try runTool("/usr/bin/rsvg-convert", [$0, "-o", $1]).status
        }
    }

    @Test(arguments: cards) func avifOfAnExampleCardIsItsPNG(name: String) throws {
        try expectSamePicture(["card", examples.appendingPathComponent("\(name).json").path] + exampleVars, ext: "avif", name: name) {
            try runTool("/usr/bin/avifdec", [$0, $1]).status
        }
    }

    /// Full chroma, the slowest and the fastest speed, a see-through card: still the picture.
    @Test func avifSettingsKeepThePicture() throws {
        let text = ["render", "--text", "Colour 😀 text", "--size", "40", "--highlight", "#E9446A", "--color", "white"]
        for (name, extra) in [("full-chroma", ["--avif-chroma", "444"]), ("slow", ["--avif-speed", "3", "--quality", "95"]),
                              ("fast", ["--avif-speed", "10"]), ("clear", ["--background", "transparent"])] {
            try expectSamePicture(text + extra, ext: "avif", name: name) { try runTool("/usr/bin/avifdec", [$0, $1]).status }
        }
        #expect(try CLI.run(text + ["-o", path("half-chroma.avif")]).status == 0)
        let sizes = try ["full-chroma", "half-chroma"].map { try Data(contentsOf: URL(fileURLWithPath: path("\($0).avif"))).count }
        #expect(sizes[0] > sizes[1], "4:4:4 should be larger than 4:2:0: \(sizes)")
        let bad = try CLI.run(text + ["--avif-speed", "11", "-o", path("bad.avif")])
        #expect(bad.status == 3 && bad.stderr.contains("--avif-speed"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("bad.avif")))
    }

    @Test func avifBytesAreReproducible() throws {
        let arguments = ["render", "--text", "Same bytes", "--size", "40", "--highlight", "yellow"]
        for name in ["one.avif", "two.avif"] { #expect(try CLI.run(arguments + ["-o", path(name)]).status == 0) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("one.avif"))) == Data(contentsOf: URL(fileURLWithPath: path("two.avif"))))
    }

    /// A restricted block: the blurred lines are one image, faded in below the boundary as in
    /// the PNG (a mask in the SVG was placed at the image's offset by Cairo 1.16).
    /// One scramble seed for both renders: the hidden words are drawn as random substitutes,
    /// and two draws blurred differently differed by up to 0.3% of the pixels (1 run in 20).
    @Test func svgOfARestrictedBlockIsItsPNG() throws {
        try expectSamePicture(["render", "--text", "Shown words on top. Hidden words below them and more hidden words",
                               "--width", "300", "--size", "30", "--canvas", "400x300", "--visible-lines", "1",
                               "--background", "white", "--highlight", "yellow", "--scramble-seed", "1"], ext: "svg", name: "restricted") {
            try runTool("/usr/bin/rsvg-convert", [$0, "-o", $1]).status
        }
    }

    /// The accessible name is the text a reader sees: never a hidden line's, escaped so a
    /// user's markup characters stay text (xmllint reads the file).
    @Test func svgIsNamedByItsVisibleTextOnly() throws {
        let result = try CLI.run(["render", "--text", "Tom & \"Jerry\" <b>\nSecret payroll numbers follow in the rest",
                                  "--width", "600", "--size", "30", "--visible-lines", "1", "-o", path("named.svg")])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOfFile: path("named.svg"), encoding: .utf8)
        #expect(svg.contains("<title>Tom &amp; &quot;Jerry&quot; &lt;b&gt;</title>"), "\(svg.prefix(600))")
        #expect(svg.contains(#"role="img" aria-label="Tom &amp; &quot;Jerry&quot; &lt;b&gt;""#))
        for hidden in ["Secret", "payroll", "numbers", "rest"] { #expect(!svg.contains(hidden), "\(hidden) is in the SVG") }
        #expect(try runTool("/usr/bin/xmllint", ["--noout", path("named.svg")]).status == 0)
    }

    /// The same card gives the same bytes, alone or among others in one process (Cairo numbers
    /// its SVG ids per document).
    @Test func svgBytesAreReproducible() throws {
        let card = ##"{"size": "300x200", "background": "#E9446A", "blocks": [{"type": "text", "text": "Same 😀 bytes", "highlight": "white"}]}"##
        try Data(card.utf8).write(to: URL(fileURLWithPath: path("card.json")))
        for name in ["one.svg", "two.svg"] {
            let result = try CLI.run(["card", path("card.json"), "-o", path(name)])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let rows = ["a.svg", "b.svg"].map { card.dropLast() + #", "output": "\#($0)"}"# }.joined(separator: "\n") + "\n"
        try Data(rows.utf8).write(to: URL(fileURLWithPath: path("rows.jsonl")))
        let batch = try CLI.run(["batch", path("rows.jsonl"), "--out-dir", path("out"), "--quiet"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let files = try ["one.svg", "two.svg", "out/a.svg", "out/b.svg"].map { try Data(contentsOf: URL(fileURLWithPath: path($0))) }
        #expect(Set(files).count == 1, "\(files.map(\.count))")
    }
}
