import Render
import Motion
import Support
import Steps
import Typeset
import PDFPost

/// Where a top-level block goes: that point of the block on the same point of the canvas
/// (inset by the card's padding), then moved by `offset` (y down).
package enum Anchor: String, CaseIterable, Sendable {
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

package enum HorizontalAlign: String, CaseIterable, Sendable {
    case left, center, right
}

/// Auto-fit: the largest font size not above the block's that fits the box (text and steps).
package struct FitSpec: Sendable {
    package internal(set) var width: Double?
    package internal(set) var height: Double?
    package internal(set) var minSize: Double = 8
    package internal(set) var maxLines: Int?

    /// Fit to the block's box (the canvas less its padding) from the requested size down to 8 px.
    package init() {}
}

package enum BackgroundSpec: Sendable {
    case color(Color)
    case gradient(angle: Double, stops: [GradientStop])
    case image(path: String, fit: ImageFit, blur: Sigma, dim: Fraction)
}

package indirect enum BlockKind: Sendable {
    case text(BlockSettings, fit: FitSpec?)
    /// A steps block's fit: the largest size not above its own whose steps fit the height.
    case steps(BlockSettings, fit: FitSpec?)
    case image(src: String, width: Double?, height: Double?, radius: Double, alt: String?)
    case stack(gap: Double, align: HorizontalAlign, blocks: [BlockSpec])
}

package struct BlockSpec: Sendable {
    package internal(set) var kind: BlockKind
    package internal(set) var anchor: Anchor = .center
    package internal(set) var offset: (Double, Double) = (0, 0)
    /// The block's effects in an animated card (empty: it stands still).
    package internal(set) var animation: [EffectSpec] = []
    /// The block's JSON path, for errors found while laying it out.
    package internal(set) var path: String

    init(kind: BlockKind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// A block placed by its anchor; the offset is checked like a spec's.
    package init(_ kind: BlockKind, anchor: Anchor = .center, offset: (Double, Double) = (0, 0), path: String = "") throws {
        for v in [offset.0, offset.1] {
            do { _ = try Checked.length(v, "offset", signed: true) } catch { throw CardError(join(path, "offset"), error.requirement) }
        }
        (self.kind, self.anchor, self.offset, self.path) = (kind, anchor, offset, path)
    }
}

/// A parsed, validated card spec.
package struct CardSpec: Sendable {
    /// The canvas size; nil fits that side to the content (the blocks' extent plus padding on
    /// both sides), which is how `hlrender render` and `steps` size an image.
    package internal(set) var width: Double? = 1080
    package internal(set) var height: Double? = 1920
    package internal(set) var scale = 1.0
    package internal(set) var padding = 64.0
    package internal(set) var background = BackgroundSpec.color(.white)
    package internal(set) var blocks: [BlockSpec] = []
    /// Folder that relative paths (images, fonts, text files) resolve against.
    package internal(set) var folder = "."
    /// Where batch mode writes the card (its own key, not used by `card`).
    package internal(set) var output: String?
    /// The card's PDF settings (the `pdf` key: title, tags, standards), under the caller's.
    package internal(set) var pdf = PDFMetadata()
    /// Frames per second, length and repeats when a block is animated.
    package internal(set) var timing = AnimationTiming()

    init() {}

    /// A card built in code (the CLI's one-block canvases): checked as the parser checks a
    /// spec's keys. A nil side is fitted to the content.
    package init(width: Double?, height: Double?, scale: Double = 1, padding: Double = 64, background: BackgroundSpec,
                blocks: [BlockSpec], folder: String = ".") throws {
        for (side, name) in [(width, "width"), (height, "height")] {
            if let side, !(side.isFinite && side > 0 && side <= CardSpec.maxSide) {
                throw CardError("size", "the \(name) must be a positive number up to \(Int(CardSpec.maxSide)), got \(Checked.describe(side))")
            }
        }
        guard CardSpec.scales.contains(scale) else { throw CardError("scale", "must be 1, 2 or 3, got \(Checked.describe(scale))") }
        do { _ = try Checked.length(padding, "padding") } catch { throw CardError("padding", error.requirement) }
        (self.width, self.height, self.scale, self.padding) = (width, height, scale, padding)
        (self.background, self.blocks, self.folder) = (background, blocks, folder)
    }

    /// Fits every text and steps block that has a fit but no height of its own into the room
    /// inside the padding (the CLI's `--fit` with `--canvas`); nothing without a fixed height.
    package mutating func fitBlocksToCanvas() {
        guard let height else { return }
        let room = height - 2 * padding
        blocks = blocks.map { block in
            var block = block
            switch block.kind {
            case let .text(settings, fit?) where fit.height == nil:
                var fit = fit
                fit.height = room
                block.kind = .text(settings, fit: fit)
            case let .steps(settings, fit?) where fit.height == nil:
                var fit = fit
                fit.height = room
                block.kind = .steps(settings, fit: fit)
            default: break
            }
            return block
        }
    }

    /// A one-block canvas (`render`, `steps`) given the placement rows' flags (`--animation`)
    /// for its block, through the rows a card's keys use.
    package mutating func applyToSoleBlock(_ apply: (inout BlockSpec) throws -> Void) rethrows {
        guard !blocks.isEmpty else { return }
        try apply(&blocks[0])
    }

    /// Whether any block or span moves: the card is an animation.
    package var isAnimated: Bool {
        func moves(_ block: BlockSpec) -> Bool {
            if !block.animation.isEmpty { return true }
            switch block.kind {
            case let .stack(_, _, blocks): return blocks.contains(where: moves)
            case let .text(settings, _), let .steps(settings, _):
                return settings.spans?.contains { !$0.settings.animation.isEmpty } ?? false
            case .image: return false
            }
        }
        return blocks.contains(where: moves)
    }

    /// The longest side a card may ask for (the output format's own limit applies after).
    package static let maxSide = 100_000.0
    package static let scales: Set<Double> = [1, 2, 3]

    package static let cardKeys = ["size", "scale", "padding", "background", "blocks", "output", "pdf"] + AnimationTiming.options.map(\.name)
    static let placementKeys = ["type"] + BlockSpec.placementOptions.map(\.name)
    static let imageKeys = ImageSettings.options.map(\.name)
    static let stackKeys = StackSettings.options.map(\.name) + ["blocks"]
}
