/// A line's box as the highlight sees it: no fonts, no text, just where it is.
public struct LineBox: Equatable, Sendable {
    public var x: Double
    public var top: Double
    public var width: Double
    public var height: Double
    /// Empty or whitespace-only: it draws nothing and starts a new block.
    public var blank: Bool

    public init(x: Double, top: Double, width: Double, height: Double, blank: Bool = false) {
        self.x = x
        self.top = top
        self.width = width
        self.height = height
        self.blank = blank
    }

    public var bottom: Double { top + height }
}

public enum CornerRadius: Equatable, Sendable {
    /// A quarter of the block's smallest line height.
    case auto
    case fixed(Double)
}

public enum Join: String, CaseIterable, Sendable {
    /// One rounded shape behind all lines of a block.
    case merged
    /// A rounded pill per line (like CSS `box-decoration-break: clone`).
    case separate
}

public struct HighlightStyle: Equatable, Sendable {
    public var paddingX: Double
    public var paddingY: Double
    public var radius: CornerRadius
    public var join: Join

    public init(paddingX: Double = 0, paddingY: Double = 0, radius: CornerRadius = .auto, join: Join = .merged) {
        self.paddingX = paddingX
        self.paddingY = paddingY
        self.radius = radius
        self.join = join
    }

    /// The auto radius as a fraction of line height.
    public static let autoRadiusFactor = 0.25
}

/// The highlight of a set of lines: closed contours, one per block (or per line when separate).
public struct Outline: Equatable, Sendable {
    public var contours: [Contour]

    public init(contours: [Contour]) { self.contours = contours }

    public func svgPath(scale: Double = 1, dx: Double = 0, dy: Double = 0) -> String {
        contours.map { $0.svgPath(scale: scale, dx: dx, dy: dy) }.joined(separator: " ")
    }
}
