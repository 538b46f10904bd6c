import Testing
@testable import Highlight

/// Boxes of equal height stacked from y = 0, placed by alignment within `blockWidth`.
func stacked(_ widths: [Double], height: Double = 40, align: String = "left", blockWidth: Double = 300) -> [LineBox] {
    widths.enumerated().map { i, width in
        let x: Double = switch align {
        case "center": (blockWidth - width) / 2
        case "right": blockWidth - width
        default: 0
        }
        return LineBox(x: x, top: Double(i) * height, width: width, height: height, blank: width == 0)
    }
}

func path(_ lines: [LineBox], r: Double, px: Double = 0, py: Double = 0, join: Join = .merged) -> String {
    OutlineBuilder.outline(lines, style: HighlightStyle(paddingX: px, paddingY: py, radius: .fixed(r), join: join)).svgPath()
}

/// The seeds' cases as SVG path data, each derived by hand from the rules in docs/ARCHITECTURE.md.
@Suite struct OutlineTextTests {
    @Test func singleLineIsARoundedRectangleWithPadding() {
        let line = [LineBox(x: 20, top: 10, width: 100, height: 40)]
        #expect(path(line, r: 10, px: 8, py: 4)
                == "M 22 6 L 118 6 A 10 10 0 0 1 128 16 L 128 44 A 10 10 0 0 1 118 54 L 22 54 A 10 10 0 0 1 12 44 L 12 16 A 10 10 0 0 1 22 6 Z")
    }

    @Test func threeCentredLinesOfDifferentWidths() {
        // 200 / 300 / 100 centred on x = 150: the middle row sticks out on both sides.
        #expect(path(stacked([200, 300, 100], align: "center"), r: 10)
                == "M 60 0 L 240 0 A 10 10 0 0 1 250 10 L 250 30 A 10 10 0 0 0 260 40 L 290 40 A 10 10 0 0 1 300 50 "
                + "L 300 70 A 10 10 0 0 1 290 80 L 210 80 A 10 10 0 0 0 200 90 L 200 110 A 10 10 0 0 1 190 120 "
                + "L 110 120 A 10 10 0 0 1 100 110 L 100 90 A 10 10 0 0 0 90 80 L 10 80 A 10 10 0 0 1 0 70 "
                + "L 0 50 A 10 10 0 0 1 10 40 L 40 40 A 10 10 0 0 0 50 30 L 50 10 A 10 10 0 0 1 60 0 Z")
    }

    @Test func leftAlignedStaircase() {
        #expect(path(stacked([300, 200, 100]), r: 10)
                == "M 10 0 L 290 0 A 10 10 0 0 1 300 10 L 300 30 A 10 10 0 0 1 290 40 L 210 40 A 10 10 0 0 0 200 50 "
                + "L 200 70 A 10 10 0 0 1 190 80 L 110 80 A 10 10 0 0 0 100 90 L 100 110 A 10 10 0 0 1 90 120 "
                + "L 10 120 A 10 10 0 0 1 0 110 L 0 10 A 10 10 0 0 1 10 0 Z")
    }

    @Test func rightAlignedStaircase() {
        #expect(path(stacked([100, 200, 300], align: "right"), r: 10)
                == "M 210 0 L 290 0 A 10 10 0 0 1 300 10 L 300 110 A 10 10 0 0 1 290 120 L 10 120 A 10 10 0 0 1 0 110 "
                + "L 0 90 A 10 10 0 0 1 10 80 L 90 80 A 10 10 0 0 0 100 70 L 100 50 A 10 10 0 0 1 110 40 "
                + "L 190 40 A 10 10 0 0 0 200 30 L 200 10 A 10 10 0 0 1 210 0 Z")
    }

    @Test func cascadeEndsFlush() {
        // 100 / 103 / 106 at r = 5: 3 px steps snap out, and the widening cascades upwards.
        #expect(path(stacked([100, 103, 106]), r: 5)
                == "M 5 0 L 101 0 A 5 5 0 0 1 106 5 L 106 115 A 5 5 0 0 1 101 120 L 5 120 A 5 5 0 0 1 0 115 L 0 5 A 5 5 0 0 1 5 0 Z")
        let rows = OutlineBuilder.snapped(OutlineBuilder.blocks(stacked([106, 103, 100]), style: HighlightStyle())[0], radius: 5)
        #expect(rows.map(\.right) == [106, 106, 106])
    }

    @Test func oneWordLastLine() {
        #expect(path(stacked([300, 300, 60]), r: 10)
                == "M 10 0 L 290 0 A 10 10 0 0 1 300 10 L 300 70 A 10 10 0 0 1 290 80 L 70 80 A 10 10 0 0 0 60 90 "
                + "L 60 110 A 10 10 0 0 1 50 120 L 10 120 A 10 10 0 0 1 0 110 L 0 10 A 10 10 0 0 1 10 0 Z")
    }

    @Test func emptyLineSplitsTwoBlocks() {
        let outline = OutlineBuilder.outline(stacked([100, 0, 100]), style: HighlightStyle(radius: .fixed(10)))
        #expect(outline.contours.count == 2)
        #expect(outline.svgPath()
                == "M 10 0 L 90 0 A 10 10 0 0 1 100 10 L 100 30 A 10 10 0 0 1 90 40 L 10 40 A 10 10 0 0 1 0 30 L 0 10 A 10 10 0 0 1 10 0 Z "
                + "M 10 80 L 90 80 A 10 10 0 0 1 100 90 L 100 110 A 10 10 0 0 1 90 120 L 10 120 A 10 10 0 0 1 0 110 L 0 90 A 10 10 0 0 1 10 80 Z")
    }

    @Test func gapsAndOverlapsMeetInTheMiddle() {
        // Line spacing 1.25: 10 px gaps between 40 px boxes; rows meet at the gap's middle.
        let lines = [LineBox(x: 0, top: 0, width: 100, height: 40), LineBox(x: 0, top: 50, width: 100, height: 40)]
        let rows = OutlineBuilder.blocks(lines, style: HighlightStyle(paddingY: 3))[0]
        #expect(rows.map(\.top) == [-3, 45])
        #expect(rows.map(\.bottom) == [45, 93])
        // Overlapping boxes (tight spacing) also meet at the middle of the overlap.
        let tight = [LineBox(x: 0, top: 0, width: 100, height: 40), LineBox(x: 0, top: 30, width: 100, height: 40)]
        #expect(OutlineBuilder.blocks(tight, style: HighlightStyle())[0].map(\.bottom) == [35, 70])
    }

    @Test func radiusIsClampedForTinyLines() {
        // A one-letter last row 12 px wide under a 200 px row, r = 10: only that row's own
        // (convex) corners shrink, to 6; the fillet above it and the first row keep r = 10.
        #expect(path(stacked([200, 12]), r: 10)
                == "M 10 0 L 190 0 A 10 10 0 0 1 200 10 L 200 30 A 10 10 0 0 1 190 40 L 22 40 A 10 10 0 0 0 12 50 "
                + "L 12 74 A 6 6 0 0 1 6 80 A 6 6 0 0 1 0 74 L 0 10 A 10 10 0 0 1 10 0 Z")
        // A tiny line height clamps to half of it.
        let short = [LineBox(x: 0, top: 0, width: 100, height: 6)]
        #expect(OutlineBuilder.clampedRadius(OutlineBuilder.blocks(short, style: HighlightStyle())[0], .fixed(20)) == 3)
        // Auto is a quarter of the smallest row height.
        #expect(OutlineBuilder.clampedRadius(OutlineBuilder.blocks(stacked([200, 100]), style: HighlightStyle())[0], .auto) == 10)
        // A single row narrower than 2r becomes a circle-capped pill, not a bow tie.
        #expect(path([LineBox(x: 0, top: 0, width: 8, height: 40)], r: 10)
                == "M 4 0 A 4 4 0 0 1 8 4 L 8 36 A 4 4 0 0 1 4 40 A 4 4 0 0 1 0 36 L 0 4 A 4 4 0 0 1 4 0 Z")
    }

    @Test func separatePillsPerLine() {
        let outline = OutlineBuilder.outline(stacked([200, 100]), style: HighlightStyle(radius: .fixed(10), join: .separate))
        #expect(outline.contours.count == 2)
        #expect(outline.contours[1].svgPath()
                == "M 10 40 L 90 40 A 10 10 0 0 1 100 50 L 100 70 A 10 10 0 0 1 90 80 L 10 80 A 10 10 0 0 1 0 70 L 0 50 A 10 10 0 0 1 10 40 Z")
    }

    @Test func disjointLinesBecomeSeparateContours() {
        let lines = [LineBox(x: 0, top: 0, width: 50, height: 40), LineBox(x: 100, top: 40, width: 50, height: 40)]
        #expect(OutlineBuilder.outline(lines, style: HighlightStyle(radius: .fixed(5))).contours.count == 2)
    }

    @Test func scaledAndMovedPath() {
        let line = [LineBox(x: 0, top: 0, width: 10, height: 10)]
        let outline = OutlineBuilder.outline(line, style: HighlightStyle(radius: .fixed(0)))
        #expect(outline.svgPath(scale: 2, dx: 1, dy: 0.5) == "M 1 0.5 L 21 0.5 L 21 20.5 L 1 20.5 L 1 0.5 Z")
    }

    @Test func numbersInPaths() {
        #expect([-0.001, 1.05, 2.5, -3.25, 0.07, 100, -0.5].map(formatNumber) == ["0", "1.05", "2.5", "-3.25", "0.07", "100", "-0.5"])
    }
}
