import Codecs
import Render
import Foundation
import Testing
@testable import Compare

func flat(_ width: Int, _ height: Int, _ grey: UInt8 = 255) -> RGBAImage {
    RGBAImage(width: width, height: height, fill: (grey, grey, grey, 255))
}

/// A black-to-white vertical edge at fractional x, anti-aliased by coverage (as a rasteriser does).
func edge(at position: Double, width: Int = 20, height: Int = 12) -> RGBAImage {
    var image = flat(width, height)
    for y in 0..<height {
        for x in 0..<width {
            let coverage = max(0, min(1, position - Double(x)))  // part of the pixel left of the edge
            let v = UInt8((255 * (1 - coverage)).rounded())
            image[x, y] = (v, v, v, 255)
        }
    }
    return image
}

@Suite struct ImageDiffTests {
    @Test func identicalImages() {
        let result = ImageDiff.compare(edge(at: 10.3), edge(at: 10.3))
        #expect(result.identical && result.differentPixels == 0 && result.antialiasedPixels == 0 && result.bounds == nil)
    }

    @Test func onePixelChangeIsCounted() {
        var actual = flat(30, 20)
        actual[7, 5] = (255, 0, 0, 255)
        let result = ImageDiff.compare(flat(30, 20), actual)
        #expect(result.differentPixels == 1)
        #expect(result.bounds == PixelRect(x: 7, y: 5, width: 1, height: 1))
        #expect(result.ratio == 1.0 / 600)
    }

    @Test func subpixelEdgeShiftIsAntialiasing() {
        let result = ImageDiff.compare(edge(at: 10.3), edge(at: 10.7))
        #expect(result.differentPixels == 0)
        #expect(result.antialiasedPixels == 12, "one column of edge pixels")
        var options = DiffOptions()
        options.countAntialiasing = true
        #expect(ImageDiff.compare(edge(at: 10.3), edge(at: 10.7), options: options).differentPixels == 12)
        // A whole-pixel move of a hard edge is a real change, not anti-aliasing.
        #expect(ImageDiff.compare(edge(at: 10), edge(at: 12)).differentPixels == 24)
    }

    @Test func thresholdEdges() {
        // Greys 100 and 110 differ only in Y: delta = 0.5053 * 10^2 = 50.53, and the threshold t
        // admits deltas up to 35215 t^2, so t* = sqrt(50.53 / 35215) = 0.03788.
        for (threshold, counted) in [(0.0378, 100), (0.0380, 0), (0.0, 100), (1.0, 0)] {
            var options = DiffOptions()
            options.threshold = threshold
            #expect(ImageDiff.compare(flat(10, 10, 100), flat(10, 10, 110), options: options).differentPixels == counted,
                    "threshold \(threshold)")
        }
    }

    @Test func ignoredRegionsAreSkipped() {
        var actual = flat(30, 20)
        actual[7, 5] = (0, 0, 0, 255)
        actual[20, 15] = (0, 0, 0, 255)
        var options = DiffOptions()
        options.ignore = [PixelRect(x: 5, y: 5, width: 3, height: 1)]
        let result = ImageDiff.compare(flat(30, 20), actual, options: options)
        #expect(result.differentPixels == 1)
        #expect(result.bounds == PixelRect(x: 20, y: 15, width: 1, height: 1))
    }

    @Test func alphaIsBlendedOverWhite() {
        // Half-transparent black shows as mid grey: the colours agree, and the alphas differ by
        // less than the threshold allows at 0.6, so nothing is counted; at 0.1 the alpha rule counts it.
        let half = RGBAImage(width: 4, height: 4, fill: (0, 0, 0, 200))
        let grey = flat(4, 4, 55)
        var loose = DiffOptions()
        loose.threshold = 0.6
        #expect(ImageDiff.compare(half, grey, options: loose).differentPixels == 0)
        #expect(ImageDiff.compare(half, grey).differentPixels == 16)
    }

    @Test func differencePanelMarksPixels() {
        var actual = edge(at: 10.3)
        actual[2, 2] = (255, 0, 255, 255)
        var panel = RGBAImage(width: 0, height: 0, pixels: [])
        var shifted = edge(at: 10.7)
        shifted[2, 2] = (255, 0, 255, 255)
        _ = ImageDiff.compare(edge(at: 10.3), shifted, diffPanel: &panel)
        #expect(panel[2, 2] == (255, 0, 0, 255))  // counted: red
        #expect(panel[10, 5] == (255, 255, 0, 255))  // anti-aliasing: yellow
        #expect(panel[15, 5] == (255, 255, 255, 255))  // white stays white when faded
        #expect(panel[0, 5].r > 200 && panel[0, 5].r < 255)  // black fades to light grey
        let three = ImageDiff.threePanel(expected: edge(at: 10.3), difference: panel, actual: shifted)
        #expect(three.width == 60 && three.height == 12)
        #expect(three[40 + 2, 2] == (255, 0, 255, 255))
    }

    @Test(arguments: ["grey", "palette", "rgb", "rgba"])
    func everyPNGColourTypeDecodes(name: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let reference = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.appendingPathComponent("rgba.png"))))
        let image = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.appendingPathComponent("\(name).png"))))
        #expect(image == reference)
        #expect(image[0, 0] == (0, 0, 0, 255) && image[5, 0] == (128, 128, 128, 255) && image[13, 0] == (255, 255, 255, 255))
    }

    @Test func encodeDecodeRoundTrip() throws {
        var image = edge(at: 5.5)
        image[1, 1] = (10, 20, 30, 40)
        #expect(try PNGCodec.decode(try PNGCodec.encode(image)) == image)
        #expect(throws: PNGError.self) { try PNGCodec.decode(Array("not a png".utf8)) }
        let truncated = Array(try PNGCodec.encode(image).prefix(40))
        #expect(throws: PNGError.self) { try PNGCodec.decode(truncated) }
    }
}
