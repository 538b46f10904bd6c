/// A line's box as the highlight sees it: no fonts, no text, just where it is.
package struct LineBox: Equatable, Sendable {
    package var x: Double
    package var top: Double
    package var width: Double
    package var height: Double
    /// Empty or whitespace-only: it draws nothing and starts a new block.
    package var blank: Bool

    package init(x: Double, top: Double, width: Double, height: Double, blank: Bool = false) {
        self.x = x
        self.top = top
        self.width = width
        self.height = height
        self.blank = blank
    }

    package var bottom: Double { top + height }
}

package enum CornerRadius: Equatable, Sendable {
    /// A quarter of the block's smallest line height.
    case auto
    case fixed(Double)
}

package enum Join: String, CaseIterable, Sendable {
    /// One rounded shape behind all lines of a block.
    case merged
    /// A rounded pill per line (like CSS `box-decoration-break: clone`).
    case separate
}

package struct HighlightStyle: Equatable, Sendable {
    package var paddingX: Double
    package var paddingY: Double
    package var radius: CornerRadius
    package var join: Join

    package init(paddingX: Double = 0, paddingY: Double = 0, radius: CornerRadius = .auto, join: Join = .merged) {
        self.paddingX = paddingX
        self.paddingY = paddingY
        self.radius = radius
        self.join = join
    }

    /// The auto radius as a fraction of line height.
    package static let autoRadiusFactor = 0.25
}

/// The highlight of a set of lines: closed contours, one per block (or per line when separate).
package struct Outline: Equatable, Sendable {
    package var contours: [Contour]

    package init(contours: [Contour]) { self.contours = contours }

    package func svgPath(scale: Double = 1, dx: Double = 0, dy: Double = 0) -> String {
        contours.map { $0.svgPath(scale: scale, dx: dx, dy: dy) }.joined(separator: " ")
    }
}
