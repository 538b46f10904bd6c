import PropertyBased
import TestSupport
import Testing
@testable import Highlight

/// Random line sets: widths, one alignment, heights, gaps (negative: overlaps), padding, radius.
struct LineSet: CustomStringConvertible {
    var lines: [LineBox]
    var style: HighlightStyle

    init(widths: [Double], align: Int, height: Double, gap: Double, padding: Double, radius: Double) {
        let block = widths.max() ?? 0
        lines = widths.enumerated().map { i, width in
            let x = align == 0 ? 0 : align == 1 ? (block - width) / 2 : block - width
            return LineBox(x: x, top: Double(i) * (height + gap), width: width, height: height)
        }
        style = HighlightStyle(paddingX: padding, paddingY: padding / 2, radius: radius < 0 ? .auto : .fixed(radius))
    }

    var description: String { "\(lines.map { ($0.x, $0.width) }) h=\(lines.first?.height ?? 0) \(style)" }
}

let lineSets = zip(
    Gen.double(in: 1...400).array(of: 1...8), Gen.int(in: 0...2), Gen.double(in: 8...80),
    Gen.double(in: -6...12), Gen.double(in: 0...24), Gen.double(in: -10...40)
).map { LineSet(widths: $0, align: $1, height: $2, gap: $3, padding: $4, radius: $5) }

/// Segments ab and cd cross, or lie on one line overlapping by more than a point (touching at
/// shared endpoints does not count).
func crosses(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
    func orient(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
    let d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d)
    let eps = 1e-7
    if [d1, d2, d3, d4].allSatisfy({ abs($0) <= eps }) {
        // Collinear: project on the longer axis and look for an overlap of positive length.
        let horizontal = abs(b.x - a.x) + abs(d.x - c.x) >= abs(b.y - a.y) + abs(d.y - c.y)
        let (a0, a1) = horizontal ? (min(a.x, b.x), max(a.x, b.x)) : (min(a.y, b.y), max(a.y, b.y))
        let (c0, c1) = horizontal ? (min(c.x, d.x), max(c.x, d.x)) : (min(c.y, d.y), max(c.y, d.y))
        return min(a1, c1) - max(a0, c0) > 1e-6
    }
    return ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
}

/// Consecutive edges that double back on themselves (a spike of zero width).
func foldsBack(_ a: Point, _ b: Point, _ c: Point) -> Bool {
    let ux = b.x - a.x, uy = b.y - a.y, vx = c.x - b.x, vy = c.y - b.y
    let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
    guard lu > 1e-9, lv > 1e-9 else { return false }
    // Arcs are flattened into chords, so a fold after an arc is a few degrees off straight back.
    return (ux * vx + uy * vy) / (lu * lv) < -0.9
}

@Suite struct OutlinePropertyTests {
    @Test func contoursAreClosedAndSimple() async {
        await propertyCheck(count: 300, input: lineSets) { set in
            for contour in OutlineBuilder.outline(set.lines, style: set.style).contours {
                // Closed: the last segment ends where the contour started.
                let end = contour.segments.last?.end ?? contour.start
                #expect(abs(end.x - contour.start.x) < 1e-9 && abs(end.y - contour.start.y) < 1e-9)
                let polygon = contour.polygon()
                let n = polygon.count
                for i in 0..<n {
                    #expect(!foldsBack(polygon[i], polygon[(i + 1) % n], polygon[(i + 2) % n]), "spike at \(i): \(set)")
                    for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                        #expect(!crosses(polygon[i], polygon[(i + 1) % n], polygon[j], polygon[(j + 1) % n]),
                                "edges \(i) and \(j) cross: \(set)")
                    }
                }
            }
        }
    }

    @Test func everyPaddedBoxIsFilled() async {
        await propertyCheck(count: 300, input: lineSets) { set in
            let outline = OutlineBuilder.outline(set.lines, style: set.style)
            let polygons = outline.contours.map { $0.polygon(arcSteps: 16) }
            let rows = OutlineBuilder.blocks(set.lines, style: set.style).flatMap { $0 }
            let r = OutlineBuilder.clampedRadius(rows, set.style.radius)
            for row in rows {
                // The padded box minus the r-squares at its corners (the only part rounding may take).
                let xs = stride(from: 0.0, through: 1.0, by: 0.125).map { row.left + 0.001 + (row.right - row.left - 0.002) * $0 }
                let ys = stride(from: 0.0, through: 1.0, by: 0.125).map { row.top + 0.001 + (row.bottom - row.top - 0.002) * $0 }
                for x in xs {
                    for y in ys {
                        let inCorner = (x < row.left + r || x > row.right - r) && (y < row.top + r || y > row.bottom - r)
                        if inCorner { continue }
                        #expect(polygons.contains { pointInPolygon(Point(x, y), $0) }, "(\(x), \(y)) not filled: \(set)")
                    }
                }
            }
        }
    }

    @Test func stepsAfterSnappingAreZeroOrAtLeastTwoR() async {
        await propertyCheck(count: 300, input: lineSets) { set in
            for block in OutlineBuilder.blocks(set.lines, style: set.style) {
                let r = OutlineBuilder.clampedRadius(block, set.style.radius)
                let rows = OutlineBuilder.snapped(block, radius: r)
                for (a, b) in zip(rows, rows.dropFirst()) {
                    for step in [abs(a.left - b.left), abs(a.right - b.right)] {
                        #expect(step == 0 || step >= 2 * r - 1e-9, "step \(step) with r \(r): \(set)")
                    }
                }
                // Snapping only moves edges outwards.
                for (before, after) in zip(block, rows) {
                    #expect(after.left <= before.left && after.right >= before.right)
                }
            }
        }
    }

    @Test func outlineStaysWithinRadiusOfTheUnion() async {
        await propertyCheck(count: 300, input: lineSets) { set in
            for block in OutlineBuilder.blocks(set.lines, style: set.style) {
                let r = OutlineBuilder.clampedRadius(block, set.style.radius)
                let rows = OutlineBuilder.snapped(block, radius: r)
                // The union's boundary is the same contour with square corners.
                let union = OutlineBuilder.contour(rows, radius: 0).polygon()
                for point in OutlineBuilder.contour(rows, radius: r).polygon(arcSteps: 16) {
                    let d = edgeDistance(point, union)
                    #expect(d <= r + 1e-6, "\(point) is \(d) from the union, r \(r): \(set)")
                }
            }
        }
    }
}
