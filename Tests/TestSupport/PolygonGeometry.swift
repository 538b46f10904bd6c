import Highlight

/// Polygon helpers for geometry tests (outlines flattened with `Contour.polygon`).
package func pointInPolygon(_ p: Point, _ polygon: [Point]) -> Bool {
    var inside = false
    var j = polygon.count - 1
    for i in polygon.indices {
        let a = polygon[i], b = polygon[j]
        if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
        j = i
    }
    return inside
}

package func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let t = dx == 0 && dy == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
    let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
    return (x * x + y * y).squareRoot()
}

/// Distance from `p` to the nearest edge of a closed polygon.
package func edgeDistance(_ p: Point, _ polygon: [Point]) -> Double {
    polygon.indices.map { distance(p, toSegment: polygon[$0], polygon[($0 + 1) % polygon.count]) }.min() ?? .infinity
}
