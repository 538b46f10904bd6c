import Render
import Support
import Steps
import Typeset

/// Where a top-level block goes: that point of the block on the same point of the canvas
/// (inset by the card's padding), then moved by `offset` (y down).
public enum Anchor: String, CaseIterable, Sendable {
    case topLeft = "top-left", top, topRight = "top-right", left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    /// The anchor point as fractions of width and height.
    var fractions: (Double, Double) {
        switch self {
        case .topLeft: (0, 0)
        case .top: (0.5, 0)
        case .topRight: (1, 0)
        case .left: (0, 0.5)
        case .center: (0.5, 0.5)
        case .right: (1, 0.5)
        case .bottomLeft: (0, 1)
        case .bottom: (0.5, 1)
        case .bottomRight: (1, 1)
        }
    }
}

public enum HorizontalAlign: String, CaseIterable, Sendable {
    case left, center, right
}

/// Auto-fit: the largest font size not above the block's that fits the box.
public struct FitSpec: Sendable {
    public var width: Double?
    public var height: Double?
    public var minSize: Double = 8
    public var maxLines: Int?
}

public enum BackgroundSpec: Sendable {
    case color(Color)
    case gradient(angle: Double, stops: [GradientStop])
    case image(path: String, fit: ImageFit, blur: Sigma, dim: Fraction)
}

public indirect enum BlockKind: Sendable {
    case text(BlockSettings, fit: FitSpec?)
    case steps(BlockSettings)
    case image(src: String, width: Double?, height: Double?, radius: Double)
    case stack(gap: Double, align: HorizontalAlign, blocks: [BlockSpec])
}

public struct BlockSpec: Sendable {
    public var kind: BlockKind
    public var anchor: Anchor = .center
    public var offset: (Double, Double) = (0, 0)
    /// The block's JSON path, for errors found while laying it out.
    public var path: String
}

/// A parsed, validated card spec.
public struct CardSpec: Sendable {
    public var width = 1080.0
    public var height = 1920.0
    public var scale = 1.0
    public var padding = 64.0
    public var background = BackgroundSpec.color(.white)
    public var blocks: [BlockSpec] = []
    /// Folder that relative paths (images, fonts, text files) resolve against.
    public var folder = "."
    /// Where batch mode writes the card (its own key, not used by `card`).
    public var output: String?

    public static let cardKeys = ["size", "scale", "padding", "background", "blocks", "output"]
    static let placementKeys = ["type", "anchor", "offset"]
    static let imageKeys = ["src", "width", "height", "radius"]
    static let stackKeys = ["gap", "align", "blocks"]
    static let fitKeys = ["width", "height", "min-size", "max-lines"]
}
