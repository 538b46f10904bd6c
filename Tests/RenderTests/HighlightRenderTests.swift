import Codecs
import Compare
import Foundation
import Highlight
import Render
import TestSupport
import Testing
import Typeset

/// The seeds' shapes as real text, each in fill, outline and both.
let highlightCases: [(name: String, text: String, align: Alignment)] = [
    ("centred", "A story caption\nwith three lines of different widths\nends here", .center),
    ("left-staircase", "The longest line comes first\nthen a shorter one\nand short", .left),
    ("right-staircase", "short\nthen a longer one\nand the longest line comes last", .right),
    ("cascade", "Almost equal\nAlmost equal.\nAlmost equal..", .left),
    ("one-word-last-line", "A highlight should hug every line\nword", .left),
    ("empty-line-split", "First block\n\nSecond block here", .center),
    ("single-line", "Single line", .center),
    ("rtl", "النص العربي يكتب\nمن اليمين", .start),
]

func highlightPaint(_ mode: String, style: HighlightStyle = HighlightStyle(paddingX: 10, paddingY: 3)) -> HighlightPaint {
    switch mode {
    case "fill": return HighlightPaint(style: style, fill: Color(parsing: "#FFD43B")!)
    case "outline": return HighlightPaint(style: style, fill: nil, stroke: Color(parsing: "#E03131")!, strokeWidth: 3)
    default: return HighlightPaint(style: style, fill: Color(parsing: "#FFD43B")!, stroke: Color(parsing: "#E03131")!, strokeWidth: 3)
    }
}

@Suite struct HighlightGoldenTests {
    @Test(arguments: highlightCases.map(\.name), ["fill", "outline", "both"])
    func highlightGolden(name: String, mode: String) throws {
        let item = highlightCases.first { $0.name == name }!
        let layout = try Fixtures.layout(item.text, size: 32, align: item.align)
        let png = try render(layout) {
            $0.highlight = highlightPaint(mode)
            $0.background = Color(parsing: "#4263EB")!
        }
        try Golden.check(png, area: "highlight", name: "\(name)-\(mode)")
    }

    @Test func separatePills() throws {
        let layout = try Fixtures.layout("Each line\nits own pill\nlike CSS clone", size: 32, align: .center)
        let png = try render(layout) {
            $0.highlight = highlightPaint("fill", style: HighlightStyle(paddingX: 10, paddingY: 3, join: .separate))
            $0.background = Color(parsing: "#4263EB")!
        }
        try Golden.check(png, area: "highlight", name: "separate")
    }
}

@Suite struct HighlightPixelTests {
    /// Pixels of `image` inside the outline (in canvas pixels) and more than `inset` from its edge.
    func interior(_ image: RGBAImage, _ outline: Outline, origin: (Double, Double), inset: Double) -> [(Int, Int)] {
        let polygons = outline.contours.map { $0.polygon(arcSteps: 16).map { Point($0.x + origin.0, $0.y + origin.1) } }
        var result: [(Int, Int)] = []
        for y in stride(from: 0, to: image.height, by: 1) {
            for x in stride(from: 0, to: image.width, by: 1) {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5)
                for polygon in polygons where pointInPolygon(p, polygon) && edgeDistance(p, polygon) > inset {
                    result.append((x, y))
                }
            }
        }
        return result
    }

    @Test func translucentFillHasNoSeams() throws {
        // Many short rows with gaps from line spacing: any double-filled seam would be brighter.
        let text = "Stories disappear\nafter a day, but\nthe way they look\nstays with people."
        let layout = try Typesetter(library: Fixtures.library, font: FontSpec())
            .layout(text, style: TypesetStyle(size: 32, alignment: .center, lineSpacing: 1.4))
        var options = TextCanvas()
        options.background = .black
        options.textColor = .transparent  // nothing but the highlight
        options.highlight = HighlightPaint(style: HighlightStyle(paddingX: 10, paddingY: 4), fill: Color(parsing: "#FFFFFF80")!)
        let image = try PNGCodec.decode(try options.render(layout))
        let geometry = options.geometry(layout)
        let pixels = interior(image, layout.highlightOutline(options.highlight!.style),
                              origin: (geometry.x, geometry.y), inset: 1.5)
        #expect(pixels.count > 10_000)
        let colours = Set(pixels.map { image[$0.0, $0.1].r })
        #expect(colours == [128], "interior colours: \(colours.sorted())")
    }

    @Test func outlineModeDrawsNothingBetweenRows() throws {
        let layout = try Fixtures.layout("A wide first line\nnarrow\nA wide third line", size: 32, align: .center)
        var options = TextCanvas()
        options.textColor = .transparent
        options.highlight = HighlightPaint(style: HighlightStyle(paddingX: 10, paddingY: 3), fill: nil,
                                           stroke: .black, strokeWidth: 2)
        let image = try PNGCodec.decode(try options.render(layout))
        let geometry = options.geometry(layout)
        let outline = layout.highlightOutline(options.highlight!.style)
        // Everything more than the stroke's half width inside the contour is untouched background.
        let pixels = interior(image, outline, origin: (geometry.x, geometry.y), inset: 2.5)
        #expect(pixels.count > 5_000)
        #expect(pixels.allSatisfy { image[$0.0, $0.1] == (255, 255, 255, 255) })
        // And the stroke is there: some pixels on the contour are dark.
        #expect(image.pixels.enumerated().contains { $0.offset % 4 == 0 && $0.element < 64 })
    }

    @Test func textColourFollowsContrast() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (highlight, expected) in [("white", "#000000"), ("#101010", "#FFFFFF"), ("yellow", "#000000"), ("navy", "#FFFFFF")] {
            let out = dir.appendingPathComponent("c.png").path
            let result = try CLI.run(["render", "--text", "I", "--font", "Noto Sans Bold 200", "--highlight", highlight,
                                      "--margin", "0", "--padding", "0", "-o", out])
            #expect(result.status == 0)
            let image = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
            // The middle of the I's stem shows the text colour.
            let p = image[image.width / 2, image.height / 2]
            #expect(String(format: "#%02X%02X%02X", p.r, p.g, p.b) == expected, "on \(highlight)")
        }
    }

    @Test func colourOptionsChooseTheStyle() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o.png").path
        // Sample inside the padding (left of the text, at the line's middle): filled or not.
        func sample(_ args: [String]) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            #expect(try CLI.run(["render", "--text", "xx", "--padding", "20", "--margin", "4", "--background", "#00FF00",
                                 "-o", out] + args).status == 0)
            let image = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
            return image[4 + 10, image.height / 2]
        }
        #expect(try sample(["--highlight", "#0000FF"]) == (0, 0, 255, 255))
        #expect(try sample(["--outline-color", "red"]) == (0, 255, 0, 255), "outline only: nothing filled")
        #expect(try sample(["--highlight", "#0000FF", "--outline-color", "red"]) == (0, 0, 255, 255))
    }

    @Test func highlightDefaultsToATransparentBackground() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o.png").path
        #expect(try CLI.run(["render", "--text", "caption", "--highlight", "white", "-o", out]).status == 0)
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(image[0, 0].a == 0)
        #expect(image[image.width / 2, image.height / 2].a == 255)
        #expect(try CLI.run(["render", "--text", "caption", "-o", out]).status == 0)
        #expect(try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))[0, 0] == (255, 255, 255, 255))
    }

    @Test func dumpReportsTheHighlight() throws {
        let result = try CLI.run(["render", "--text", "one\ntwo words\n\nthree", "--highlight", "white", "--margin", "0",
                                  "--padding", "5,2", "--radius", "4", "--dump-layout", "-"])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        let highlight = try #require(json["highlight"] as? [String: Any])
        #expect(highlight["contours"] as? Int == 2)
        let path = highlight["path"] as! String
        #expect(path.hasPrefix("M ") && path.hasSuffix(" Z"))
        #expect(path.components(separatedBy: "M ").count - 1 == 2)
        // Padding 5,2: the path starts r = 4 right of the first line's x minus padding.
        let lines = json["lines"] as! [[String: Any]]
        let x = lines[0]["x"] as! Double, top = lines[0]["top"] as! Double
        #expect(path.hasPrefix("M \(fmt(x - 5 + 4)) \(fmt(top - 2)) "))
    }

    private func fmt(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
