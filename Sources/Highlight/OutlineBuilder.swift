/// Line boxes in, highlight contours out (see docs/ARCHITECTURE.md, "Highlight geometry").
package enum OutlineBuilder {
    /// One padded, vertically joined box of a block, as edges.
    struct Row: Equatable {
        var left: Double
        var right: Double
        var top: Double
        var bottom: Double
    }

    package static func outline(_ lines: [LineBox], style: HighlightStyle) -> Outline {
        var contours: [Contour] = []
        for block in blocks(lines, style: style) {
            switch style.join {
            case .merged:
                let radius = clampedRadius(block, style.radius)
                contours.append(contour(snapped(block, radius: radius), radius: radius))
            case .separate:
                for row in block {
                    contours.append(contour([row], radius: clampedRadius([row], style.radius)))
                }
            }
        }
        return Outline(contours: contours)
    }

    /// Splits lines into blocks at blank lines, pads them, and makes neighbours touch: the
    /// boundary between two rows is the middle of their gap (or overlap); the block grows by
    /// `paddingY` at its top and bottom. Rows whose boxes do not overlap horizontally start a
    /// new block too (one contour could not hold them).
    static func blocks(_ lines: [LineBox], style: HighlightStyle) -> [[Row]] {
        var groups: [[LineBox]] = []
        var current: [LineBox] = []
        for line in lines {
            if line.blank || line.width <= 0 {
                if !current.isEmpty { groups.append(current) }
                current = []
                continue
            }
            if let last = current.last,
               min(last.x + last.width, line.x + line.width) - max(last.x, line.x) <= 0 {
                groups.append(current)
                current = []
            }
            current.append(line)
        }
        if !current.isEmpty { groups.append(current) }

        return groups.map { group in
            group.enumerated().map { i, line in
                let top = i == 0 ? line.top - style.paddingY : (group[i - 1].bottom + line.top) / 2
                let bottom = i == group.count - 1 ? line.bottom + style.paddingY : (line.bottom + group[i + 1].top) / 2
                return Row(left: line.x - style.paddingX, right: line.x + line.width + style.paddingX,
                           top: top, bottom: bottom)
            }
        }
    }

    /// The radius, clamped to half the smallest row height so the arcs at a row's top and
    /// bottom always fit. Widths clamp only convex corners, per row (see `contour`).
    static func clampedRadius(_ rows: [Row], _ radius: CornerRadius) -> Double {
        let minHeight = rows.map { $0.bottom - $0.top }.min() ?? 0
        let wanted: Double
        switch radius {
        case .auto: wanted = HighlightStyle.autoRadiusFactor * minHeight
        case let .fixed(value): wanted = value
        }
        return max(0, min(wanted, minHeight / 2))
    }

    /// Snap per side: where neighbouring edges differ by less than 2r, the inner edge moves out to
    /// the outer one; sweeps alternate down and up until nothing moves (the cascade).
    static func snapped(_ rows: [Row], radius: Double) -> [Row] {
        var rows = rows
        let limit = 2 * radius
        guard rows.count > 1, limit > 0 else { return rows }
        var moved = true
        var downward = true
        while moved {
            moved = false
            let pairs = downward ? Array(0..<(rows.count - 1)) : Array((0..<(rows.count - 1)).reversed())
            for i in pairs {
                let left = snap(rows[i].left, rows[i + 1].left, limit: limit, outer: min)
                let right = snap(rows[i].right, rows[i + 1].right, limit: limit, outer: max)
                (rows[i].left, rows[i + 1].left) = (left ?? rows[i].left, left ?? rows[i + 1].left)
                (rows[i].right, rows[i + 1].right) = (right ?? rows[i].right, right ?? rows[i + 1].right)
                moved = moved || left != nil || right != nil
            }
            downward.toggle()
        }
        return rows
    }

    /// The shared edge when two neighbouring edges differ by less than `limit` (the outer one),
    /// nil when they are equal or far enough apart.
    private static func snap(_ a: Double, _ b: Double, limit: Double, outer: (Double, Double) -> Double) -> Double? {
        let step = abs(a - b)
        return step > 0 && step < limit ? outer(a, b) : nil
    }

    /// The closed contour around stacked rows, clockwise on screen: across the top, down the
    /// right side, back along the bottom and up the left side. At each step the row that sticks
    /// out gets a convex corner and the other a concave fillet; equal edges run straight on.
    /// Fillets have radius r: they reach outwards onto the wider row's edge, where snapping left
    /// at least 2r. A convex corner lies on its own row's edge, so it is clamped to half that
    /// row's width (a one-letter row keeps a valid shape without shrinking the whole block).
    static func contour(_ rows: [Row], radius r: Double) -> Contour {
        let corner = rows.map { min(r, ($0.right - $0.left) / 2) }
        let first = rows[0], last = rows[rows.count - 1]
        let c0 = corner[0], cn = corner[rows.count - 1]
        var c = Contour(start: Point(first.left + c0, first.top))
        c.append(.line(to: Point(first.right - c0, first.top)))
        c.append(.arc(to: Point(first.right, first.top + c0), center: Point(first.right - c0, first.top + c0),
                      radius: c0, clockwise: true))
        for k in 1..<rows.count {
            let upper = rows[k - 1].right, lower = rows[k].right, y = rows[k].top
            if lower > upper {
                let q = corner[k]
                c.append(.line(to: Point(upper, y - r)))
                c.append(.arc(to: Point(upper + r, y), center: Point(upper + r, y - r), radius: r, clockwise: false))
                c.append(.line(to: Point(lower - q, y)))
                c.append(.arc(to: Point(lower, y + q), center: Point(lower - q, y + q), radius: q, clockwise: true))
            } else if lower < upper {
                let q = corner[k - 1]
                c.append(.line(to: Point(upper, y - q)))
                c.append(.arc(to: Point(upper - q, y), center: Point(upper - q, y - q), radius: q, clockwise: true))
                c.append(.line(to: Point(lower + r, y)))
                c.append(.arc(to: Point(lower, y + r), center: Point(lower + r, y + r), radius: r, clockwise: false))
            }
        }
        c.append(.line(to: Point(last.right, last.bottom - cn)))
        c.append(.arc(to: Point(last.right - cn, last.bottom), center: Point(last.right - cn, last.bottom - cn),
                      radius: cn, clockwise: true))
        c.append(.line(to: Point(last.left + cn, last.bottom)))
        c.append(.arc(to: Point(last.left, last.bottom - cn), center: Point(last.left + cn, last.bottom - cn),
                      radius: cn, clockwise: true))
        for k in stride(from: rows.count - 1, through: 1, by: -1) {
            let lower = rows[k].left, upper = rows[k - 1].left, y = rows[k].top
            if lower < upper {
                let q = corner[k]
                c.append(.line(to: Point(lower, y + q)))
                c.append(.arc(to: Point(lower + q, y), center: Point(lower + q, y + q), radius: q, clockwise: true))
                c.append(.line(to: Point(upper - r, y)))
                c.append(.arc(to: Point(upper, y - r), center: Point(upper - r, y - r), radius: r, clockwise: false))
            } else if lower > upper {
                let q = corner[k - 1]
                c.append(.line(to: Point(lower, y + r)))
                c.append(.arc(to: Point(lower - r, y), center: Point(lower - r, y + r), radius: r, clockwise: false))
                c.append(.line(to: Point(upper + q, y)))
                c.append(.arc(to: Point(upper, y - q), center: Point(upper + q, y - q), radius: q, clockwise: true))
            }
        }
        c.append(.line(to: Point(first.left, first.top + c0)))
        c.append(.arc(to: Point(first.left + c0, first.top), center: Point(first.left + c0, first.top + c0),
                      radius: c0, clockwise: true))
        return c
    }
}
