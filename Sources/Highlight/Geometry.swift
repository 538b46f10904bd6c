/// Plain 2-D geometry for outlines: points, line and circular-arc segments, closed contours,
/// and SVG path data. Coordinates are y-down (screen), as everywhere in hlrender.

package struct Point: Equatable, Hashable, Sendable, CustomStringConvertible {
    package var x: Double
    package var y: Double
    package init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    package var description: String { "(\(x), \(y))" }
}

package enum Segment: Equatable, Sendable {
    case line(to: Point)
    /// A circular arc of at most a quarter turn from the current point to `to`, around `center`;
    /// `clockwise` on screen (y down) is SVG's sweep flag 1.
    case arc(to: Point, center: Point, radius: Double, clockwise: Bool)

    package var end: Point {
        switch self {
        case let .line(to): return to
        case let .arc(to, _, _, _): return to
        }
    }

    /// The angle (radians, y down) of `point` seen from `center`: where an arc starts or ends.
    package static func angle(of point: Point, around center: Point) -> Double {
        Double.atan2(y: point.y - center.y, x: point.x - center.x)
    }
}

/// One closed contour: from `start` through the segments and back.
package struct Contour: Equatable, Sendable {
    package var start: Point
    package var segments: [Segment]

    package init(start: Point, segments: [Segment] = []) {
        self.start = start
        self.segments = segments
    }

    var current: Point { segments.last?.end ?? start }

    /// Adds a segment unless it goes nowhere (a zero-length line or arc).
    mutating func append(_ segment: Segment) {
        let from = current, to = segment.end
        if abs(from.x - to.x) < 1e-9 && abs(from.y - to.y) < 1e-9 { return }
        if case let .line(to) = segment, case let .line(previous)? = segments.last {
            // Merge collinear lines so the path stays minimal.
            let before = segments.count >= 2 ? segments[segments.count - 2].end : start
            if (abs(before.x - previous.x) < 1e-9 && abs(previous.x - to.x) < 1e-9)
                || (abs(before.y - previous.y) < 1e-9 && abs(previous.y - to.y) < 1e-9) {
                segments[segments.count - 1] = .line(to: to)
                return
            }
        }
        segments.append(segment)
    }

    /// The contour as a polygon, each arc flattened into `steps` chords.
    package func polygon(arcSteps steps: Int = 8) -> [Point] {
        var points = [start]
        var from = start
        for segment in segments {
            switch segment {
            case let .line(to):
                points.append(to)
            case let .arc(to, center, radius, clockwise):
                let a0 = Segment.angle(of: from, around: center)
                var a1 = Segment.angle(of: to, around: center)
                if clockwise, a1 < a0 { a1 += 2 * .pi }
                if !clockwise, a1 > a0 { a1 -= 2 * .pi }
                for i in 1...steps {
                    let a = a0 + (a1 - a0) * Double(i) / Double(steps)
                    points.append(i == steps ? to : Point(center.x + radius * .cos(a), center.y + radius * .sin(a)))
                }
            }
            from = segment.end
        }
        if points.count > 1, points.last == start { points.removeLast() }
        return points
    }

    /// SVG path data for this contour, after scaling by `scale` and moving by (dx, dy).
    package func svgPath(scale: Double = 1, dx: Double = 0, dy: Double = 0) -> String {
        func n(_ v: Double) -> String { formatNumber(v) }
        func p(_ point: Point) -> String { "\(n(point.x * scale + dx)) \(n(point.y * scale + dy))" }
        var parts = ["M \(p(start))"]
        for segment in segments {
            switch segment {
            case let .line(to): parts.append("L \(p(to))")
            case let .arc(to, _, radius, clockwise):
                parts.append("A \(n(radius * scale)) \(n(radius * scale)) 0 0 \(clockwise ? 1 : 0) \(p(to))")
            }
        }
        parts.append("Z")
        return parts.joined(separator: " ")
    }
}

/// Up to two decimals, no trailing zeros, no "-0" (integer arithmetic: String(format:) is slow
/// for paths of 10,000 lines).
func formatNumber(_ value: Double) -> String {
    // Int(exactly:) never traps: a coordinate past 9e16 (or NaN) is written as Swift prints it.
    guard let hundredths = Int(exactly: (value * 100).rounded()) else { return value.isFinite ? String(value) : "0" }
    if hundredths == 0 { return "0" }
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(hundredths)
    let whole = String(magnitude / 100)
    let fraction = magnitude % 100
    if fraction == 0 { return sign + whole }
    if fraction % 10 == 0 { return sign + whole + "." + String(fraction / 10) }
    return sign + whole + (fraction < 10 ? ".0" : ".") + String(fraction)
}

import RealModule
