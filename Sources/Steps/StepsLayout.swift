/// The compact step indicator: dots in one column, each step's text beside its dot on
/// alternating sides, packed as tightly as the constraints allow. Pure geometry: text sizes in,
/// boxes out.

package struct Box: Equatable, Sendable {
    package var x: Double
    package var top: Double
    package var width: Double
    package var height: Double

    package init(x: Double, top: Double, width: Double, height: Double) {
        self.x = x
        self.top = top
        self.width = width
        self.height = height
    }

    package var bottom: Double { top + height }
    package var centerY: Double { top + height / 2 }
}

package enum Side: String, Sendable {
    case left, right
    package var other: Side { self == .left ? .right : .left }
}

package struct StepsFrame: Sendable {
    package var canvasWidth: Double
    /// x of the dot column's centre.
    package var columnX: Double
    package var dotSize: Double
    /// Horizontal space between a dot and its text.
    package var gap: Double
    package var margin: Double
    package var firstSide: Side

    package init(canvasWidth: Double, columnX: Double? = nil, dotSize: Double, gap: Double, margin: Double,
                firstSide: Side = .left) {
        self.canvasWidth = canvasWidth
        self.columnX = columnX ?? canvasWidth / 2
        self.dotSize = dotSize
        self.gap = gap
        self.margin = margin
        self.firstSide = firstSide
    }

    /// Both text columns have this width: from the margin to the dot column minus the gap, on
    /// the narrower side when the column is off centre.
    package var textColumnWidth: Double {
        let left = columnX - dotSize / 2 - gap - margin
        let right = canvasWidth - margin - (columnX + dotSize / 2 + gap)
        return max(0, min(left, right))
    }

    package func side(of index: Int) -> Side { index % 2 == 0 ? firstSide : firstSide.other }

    /// The text column's left edge for a side.
    package func columnLeft(_ side: Side) -> Double {
        side == .left ? columnX - dotSize / 2 - gap - textColumnWidth : columnX + dotSize / 2 + gap
    }
}

package struct PlacedStep: Equatable, Sendable {
    package var index: Int
    package var side: Side
    package var dot: Box
    /// The text column's box at this step's height (the text is laid out within it).
    package var text: Box
}

package enum StepsLayout {
    /// Places steps whose texts are `heights` tall, starting at y = `top`. Each text is centred
    /// on its dot, and each centre is the lowest that satisfies, against the steps before it:
    /// dot_i.bottom <= text_{i+1}.top, text_i.bottom <= dot_{i+1}.top and dots that do not
    /// overlap (same-side texts then never overlap either). Every bound looks only upwards, so
    /// taking each step as high as it may go gives the shortest layout.
    package static func place(heights: [Double], frame: StepsFrame, top: Double = 0) -> [PlacedStep] {
        let d = frame.dotSize
        var centers: [Double] = []
        for (i, h) in heights.enumerated() {
            var center = top + max(h, d) / 2
            if i > 0 {
                let previous = centers[i - 1], hp = heights[i - 1]
                center = max(center,
                             previous + d / 2 + h / 2,  // dot_{i-1}.bottom <= text_i.top
                             previous + hp / 2 + d / 2,  // text_{i-1}.bottom <= dot_i.top
                             previous + d)  // dots never overlap
            }
            if i > 1 {
                center = max(center, centers[i - 2] + heights[i - 2] / 2 + h / 2)  // same side
            }
            centers.append(center)
        }
        return heights.enumerated().map { i, h in
            let side = frame.side(of: i)
            return PlacedStep(index: i, side: side,
                              dot: Box(x: frame.columnX - d / 2, top: centers[i] - d / 2, width: d, height: d),
                              text: Box(x: frame.columnLeft(side), top: centers[i] - h / 2,
                                        width: frame.textColumnWidth, height: h))
        }
    }

    /// The height the steps take from `top` to the lowest dot or text.
    package static func extent(_ steps: [PlacedStep], top: Double = 0) -> Double {
        (steps.map { max($0.dot.bottom, $0.text.bottom) }.max() ?? top) - top
    }
}
