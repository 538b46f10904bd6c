import Codecs
import Compare
import Foundation
import Highlight
import Render
import TestSupport
import Testing
import Typeset

let restrictedText = "Stories disappear after a day,\nbut the way they look stays\nwith people. A highlight should hug\nevery line and never leave a seam."

func restrictedPNG(visible: Int?, highlight: Bool, scramble: Bool = true, format: OutputFormat = .png) throws -> [UInt8] {
    let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
    let layout = try typesetter.layout(restrictedText, style: TypesetStyle(size: 32, alignment: .center))
    var options = TextCanvas()
    options.format = format
    options.background = Color(parsing: "#3B5BDB")!
    if highlight {
        options.highlight = HighlightPaint(style: HighlightStyle(paddingX: 10, paddingY: 3), fill: .white)
    } else {
        options.textColor = .white
    }
    guard let visible else { return try options.render(layout) }
    let restriction = try Restriction(visibleLines: visible, sigma: 11)
    let restricted = scramble
        ? try RestrictedText(scrambled: typesetter.scrambled(layout, fromLine: visible, seed: 7), restriction: restriction)
        : RestrictedText(realGlyphs: layout, restriction: restriction)
    return try options.render(restricted)
}

@Suite struct RestrictedRenderTests {
    @Test(arguments: [0, 1, 2], [false, true])
    func restrictedGolden(visible: Int, highlight: Bool) throws {
        try Golden.check(try restrictedPNG(visible: visible, highlight: highlight), area: "restricted",
                         name: "visible-\(visible)\(highlight ? "-highlight" : "")")
    }

    @Test(arguments: [1, 2, 3])
    func rowsAboveTheBoundaryAreUnchanged(visible: Int) throws {
        let sharp = try PNGCodec.decode(try restrictedPNG(visible: nil, highlight: true))
        let restricted = try PNGCodec.decode(try restrictedPNG(visible: visible, highlight: true))
        #expect(sharp.width == restricted.width && sharp.height == restricted.height)
        let layout = try Typesetter(library: Fixtures.library, font: FontSpec())
            .layout(restrictedText, style: TypesetStyle(size: 32, alignment: .center))
        var options = TextCanvas()
        options.highlight = HighlightPaint(style: HighlightStyle(paddingX: 10, paddingY: 3), fill: .white)
        let boundary = options.geometry(layout).y + layout.lines[visible - 1].bottom
        let rows = Int((boundary - 0.5).rounded(.up))  // rows whose centre is above the boundary
        let rowBytes = sharp.width * 4
        #expect(sharp.pixels[0..<(rows * rowBytes)] == restricted.pixels[0..<(rows * rowBytes)])
        // And below it something did change.
        #expect(sharp.pixels[(rows * rowBytes)...] != restricted.pixels[(rows * rowBytes)...])
    }

    @Test func pdfTextLayerHoldsOnlyTheVisibleLines() throws {
        let pdf = try restrictedPNG(visible: 1, highlight: true, format: .pdf)
        let extracted = try pdfText(pdf)
        #expect(words(extracted) == ["Stories", "disappear", "after", "a", "day,"])
        let hiddenWords = Set(words(restrictedText.components(separatedBy: "\n").dropFirst().joined(separator: " ")))
        for word in hiddenWords where word.count > 2 {
            #expect(!extracted.contains(word), "\(word) leaked")
            // Not in the raw file either (metadata, outlines, alt text).
            #expect(String(decoding: pdf, as: UTF8.self).range(of: word) == nil, "\(word) in the PDF bytes")
        }
    }

    @Test func blurModeKeepsRealGlyphsScrambleDoesNot() throws {
        let real = try PNGCodec.decode(try restrictedPNG(visible: 1, highlight: false, scramble: false))
        let scrambled = try PNGCodec.decode(try restrictedPNG(visible: 1, highlight: false, scramble: true))
        #expect(real != scrambled)
    }

    @Test func sigmaHasAMinimumForLargeText() throws {
        let restriction = try Restriction(visibleLines: 0, sigma: 2)
        #expect(restriction.effectiveSigma(fontSize: 200) == 30)
        #expect(restriction.effectiveSigma(fontSize: 10) == 2)
    }

    @Test func theLibraryRefusesWhatItCannotDraw() {
        // A caller that skips the CLI's checks gets an error, not a trap.
        #expect(throws: RenderError.self) { try Restriction(visibleLines: 1, sigma: 1e300) }
        #expect(throws: RenderError.self) { try Restriction(visibleLines: -1, sigma: 4) }
        #expect(throws: RenderError.self) { try Restriction(visibleLines: 1, sigma: 4, feather: .nan) }
    }
}
