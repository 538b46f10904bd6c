/// The compact step indicator: dots in one column, each step's text beside its dot on
/// alternating sides, packed as tightly as the constraints allow. Pure geometry: text sizes in,
/// boxes out.

public struct Box: Equatable, Sendable {
    public var x: Double
    public var top: Double
    public var width: Double
    public var height: Double

    public init(x: Double, top: Double, width: Double, height: Double) {
        self.x = x
        self.top = top
        self.width = width
        self.height = height
    }

    public var bottom: Double { top + height }
    public var centerY: Double { top + height / 2 }
}

public enum Side: String, Sendable {
    case left, right
    public var other: Side { self == .left ? .right : .left }
}

public struct StepsFrame: Sendable {
    public var canvasWidth: Double
    /// x of the dot column's centre.
    public var columnX: Double
    public var dotSize: Double
    /// Horizontal space between a dot and its text.
    public var gap: Double
    public var margin: Double
    public var firstSide: Side

    public init(canvasWidth: Double, columnX: Double? = nil, dotSize: Double, gap: Double, margin: Double,
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
    public var textColumnWidth: Double {
        let left = columnX - dotSize / 2 - gap - margin
        let right = canvasWidth - margin - (columnX + dotSize / 2 + gap)
        return max(0, min(left, right))
    }

    public func side(of index: Int) -> Side { index % 2 == 0 ? firstSide : firstSide.other }

    /// The text column's left edge for a side.
    public func columnLeft(_ side: Side) -> Double {
        side == .left ? columnX - dotSize / 2 - gap - textColumnWidth : columnX + dotSize / 2 + gap
    }
}

public struct PlacedStep: Equatable, Sendable {
    public var index: Int
    public var side: Side
    public var dot: Box
    /// The text column's box at this step's height (the text is laid out within it).
    public var text: Box
}

public enum StepsLayout {
    /// Places steps whose texts are `heights` tall, starting at y = `top`. Each text is centred
    /// on its dot, and each centre is the lowest that satisfies, against the steps before it:
    /// dot_i.bottom <= text_{i+1}.top, text_i.bottom <= dot_{i+1}.top and dots that do not
    /// overlap (same-side texts then never overlap either). Every bound looks only upwards, so
    /// taking each step as high as it may go gives the shortest layout.
    public static func place(heights: [Double], frame: StepsFrame, top: Double = 0) -> [PlacedStep] {
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
    public static func extent(_ steps: [PlacedStep], top: Double = 0) -> Double {
        (steps.map { max($0.dot.bottom, $0.text.bottom) }.max() ?? top) - top
    }
}
