import Motion
import Support
import Typeset

// The keys of blocks that are not text options: where a block sits, what an image or a stack
// block is, and a text block's fit. Each is a row, as every other key is, so the parser, the
// schema and the errors read one definition.

extension BlockSpec {
    /// The `anchor` row, for what reads it alone.
    package static let anchorRow = OptionDefinition<BlockSpec>("anchor", Anchor.allCases.map(\.rawValue).joined(separator: "|"), schema: "string",
        "The canvas point the block is placed at, inside the padding (default center).") {
        $0.anchor = try $1.choice(Anchor.self)
    }

    /// The `offset` row, for what reads it alone.
    package static let offsetRow = OptionDefinition<BlockSpec>("offset", "[dx, dy]", schema: "array", "A shift in px from the anchored place, right and down.") {
        let items = try $1.list()
        guard items.count == 2 else { throw OptionError("must be [dx, dy]") }
        var shift = (0.0, 0.0)
        for (i, item) in items.enumerated() {
            let v: Double
            do { v = try item.number() } catch let error as OptionError { throw OptionError(error.message, at: "[\(i)]") }
            guard abs(v) <= OptionModel.maxLength else { throw OptionError("must be within \(Int(OptionModel.maxLength)) px") }
            if i == 0 { shift.0 = v } else { shift.1 = v }
        }
        $0.offset = shift
    }

    /// The `animation` row, for what reads it alone.
    package static let animationRow = OptionDefinition<BlockSpec>("animation", "effect[,effect]", schema: "string|object|array",
        "The block's effects in an animated card: \(Effect.allCases.map(\.rawValue).joined(separator: ", ")), or objects {\"effect\", \"duration\", \"delay\", \"start\", \"stagger\", \"easing\"}; each follows the one before unless it has a start.") {
        $0.animation = try EffectSpec.list($1)
    }

    /// Where any block sits on the canvas, and how it moves.
    package static let placementOptions: [OptionDefinition<BlockSpec>] = [anchorRow, offsetRow, animationRow]
}

/// An image block's keys, before they become `BlockKind.image`.
package struct ImageSettings: Sendable {
    package internal(set) var src: String?
    package internal(set) var width: Double?
    package internal(set) var height: Double?
    package internal(set) var radius = 0.0
    package internal(set) var alt: String?

    package init() {}

    package static let options: [OptionDefinition<ImageSettings>] = [
        OptionDefinition("src", "path", schema: "string", "The picture: PNG, JPEG, WebP or SVG, relative to the spec's folder.") {
            $0.src = try $1.string()
        },
        OptionDefinition("width", "px", schema: "number", "Width of the box the picture is drawn in, its proportions kept (default: from the height, else the picture's own).") {
            $0.width = try OptionModel.positive(try $1.number())
        },
        OptionDefinition("height", "px", schema: "number", "Height of the box the picture is drawn in, its proportions kept (default: from the width, else the picture's own).") {
            $0.height = try OptionModel.positive(try $1.number())
        },
        OptionDefinition("radius", "px", schema: "number", "Corner radius (default 0).") { $0.radius = try OptionModel.nonNegative(try $1.number()) },
        OptionDefinition("alt", "text", schema: "string", "What the picture shows, for the PDF's structure and an SVG's name (PDF/UA-1 needs it).") {
            $0.alt = try $1.string()
        },
    ]
}

/// A stack block's keys besides its `blocks`.
package struct StackSettings: Sendable {
    package internal(set) var gap = 0.0
    package internal(set) var align = HorizontalAlign.center

    package init() {}

    /// The `gap` row, for what reads it alone.
    package static let gapRow = OptionDefinition<StackSettings>("gap", "px", schema: "number", "Space between the stacked blocks (default 0).") { $0.gap = try OptionModel.nonNegative(try $1.number()) }

    /// The `align` row, for what reads it alone.
    package static let alignRow = OptionDefinition<StackSettings>("align", HorizontalAlign.allCases.map(\.rawValue).joined(separator: "|"), schema: "string",
        "Where narrower blocks sit across the stack (default center).") {
        $0.align = try $1.choice(HorizontalAlign.self)
    }

    package static let options: [OptionDefinition<StackSettings>] = [gapRow, alignRow]
}

extension FitSpec {
    /// The members of a text or steps block's `fit`.
    package static let options: [OptionDefinition<FitSpec>] = [
        OptionDefinition("width", "px", schema: "number", "The box's width (default: the block's room inside the padding).") {
            $0.width = try OptionModel.positive(try $1.number())
        },
        OptionDefinition("height", "px", schema: "number", "The box's height (default: the block's room inside the padding).") {
            $0.height = try OptionModel.positive(try $1.number())
        },
        OptionDefinition("min-size", "px", schema: "number", "The smallest font size tried (default 8).") {
            let v = try $1.number()
            guard TypesetStyle.sizeRange.contains(v) else {
                throw OptionError("must be between \(TypesetStyle.sizeRange.lowerBound) and \(Int(TypesetStyle.sizeRange.upperBound)) px")
            }
            $0.minSize = v
        },
        OptionDefinition("max-lines", "n", schema: "integer", "At most this many lines (text blocks).") {
            $0.maxLines = try $1.integer(in: 1...999_999)
        },
    ]
}
