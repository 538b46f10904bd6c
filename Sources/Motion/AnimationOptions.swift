import Support

/// The whole animation's clock: frames per second, length and repeats (card keys `fps`,
/// `duration`, `loop`; the same flags on `render` and `card`).
package struct AnimationTiming: Sendable, Hashable {
    /// Frames per second, 1 to 60 (default 30).
    package var fps = 30
    /// Seconds from the first frame to the end; nil: the block effects' end and a one-second
    /// hold on the finished card.
    package var duration: Double?
    /// Times the animation plays (0, the default: for ever).
    package var loop = 0

    package init() {}

    /// The longest animation taken, in seconds, and the most frames (with the pixel budget
    /// below, what one render may draw).
    package static let maxDuration = 60.0
    package static let maxFrames = 3_600

    /// The timing rows, read by the card keys and the CLI's flags alike.
    package static let options: [OptionDefinition<AnimationTiming>] = [
        OptionDefinition("fps", "1-60", schema: "integer", "Frames per second of an animated card (default 30).") {
            $0.fps = try $1.integer(in: 1...60)
        },
        OptionDefinition("duration", "seconds", schema: "number",
                         "Length of an animated card in seconds, up to 60 (default: its effects' end and a 1 s hold on the finished card).") {
            let v = try $1.number()
            guard v.isFinite, v > 0, v <= maxDuration else {
                throw OptionError("must be a number of seconds above 0 and at most \(Int(maxDuration)), got \(Checked.describe(v))")
            }
            $0.duration = v
        },
        OptionDefinition("loop", "n", schema: "integer", "Times an animated card plays; 0 (the default) repeats for ever.") {
            $0.loop = try $1.integer(in: 0...65_535)
        },
    ]

    /// The number of frames for an animation whose effects end at `end` seconds: at least two
    /// (the first and the finished card).
    package func frameCount(effectsEnd end: Double) -> Int {
        let seconds = duration ?? (end + 1)
        return Checked.clamped(seconds * Double(fps), .toNearestOrAwayFromZero, in: 2...Int(Int32.max))
    }
}

extension EffectSpec {
    /// The members of one effect object in a block's `animation` list.
    package static let options: [OptionDefinition<EffectSpec>] = [
        OptionDefinition("effect", Effect.allCases.map(\.rawValue).joined(separator: "|"), schema: "string", "The effect's name.") {
            $0.effect = try $1.choice(Effect.self)
            $0.duration = $0.effect.defaultDuration
        },
        OptionDefinition("duration", "seconds", schema: "number", "How long it takes (each line's or word's part when staggered).") {
            $0.duration = try seconds($1)
        },
        OptionDefinition("delay", "seconds", schema: "number", "Wait after the effect before it in the list (default 0).") {
            $0.delay = try seconds($1)
        },
        OptionDefinition("start", "seconds", schema: "number", "Start at this time from the card's start instead of after the effect before it.") {
            $0.start = try seconds($1)
        },
        OptionDefinition("stagger", "seconds", schema: "number", "Time between one line's or word's start and the next's.") {
            $0.stagger = try seconds($1)
        },
        OptionDefinition("easing", Easing.allCases.map(\.rawValue).joined(separator: "|"), schema: "string", "Timing function (default ease-out).") {
            $0.easing = try $1.choice(Easing.self)
        },
    ]

    private static func seconds(_ input: OptionInput) throws -> Double {
        let v = try input.number()
        guard v.isFinite, v >= 0, v <= AnimationTiming.maxDuration else {
            throw OptionError("must be a number of seconds from 0 to \(Int(AnimationTiming.maxDuration)), got \(Checked.describe(v))")
        }
        return v
    }

    /// A block's `animation`: an effect's name, an object of the keys above, or a list of
    /// either (a flag's comma-separated names). At most 16 effects.
    package static func list(_ input: OptionInput) throws -> [EffectSpec] {
        let items: [OptionInput]
        switch input {
        case .json(.array): items = try input.list()
        case .json(.object): items = [input]
        default: items = try input.list()
        }
        guard !items.isEmpty, items.count <= 16 else { throw OptionError("must name 1 to 16 effects, got \(items.count)") }
        return try items.enumerated().map { index, item in
            do {
                return try one(item)
            } catch let error as OptionError {
                throw items.count == 1 && !isArray(input) ? error : OptionError(error.reason, at: "[\(index)]" + error.subpath)
            }
        }
    }

    private static func isArray(_ input: OptionInput) -> Bool {
        if case .json(.array) = input { return true }
        return false
    }

    private static func one(_ input: OptionInput) throws -> EffectSpec {
        guard case let .json(.object(members)) = input else {
            return EffectSpec(try input.choice(Effect.self))
        }
        guard let named = members.first(where: { $0.0 == "effect" }) else {
            throw OptionError("names no effect (\(Effect.allCases.map(\.rawValue).joined(separator: ", ")))", at: ".effect")
        }
        var spec = EffectSpec(.fade)
        try apply(named.1, "effect", to: &spec)
        for (key, value) in members where key != "effect" {
            try apply(value, key, to: &spec)
        }
        return spec
    }

    private static func apply(_ value: JSONValue, _ key: String, to spec: inout EffectSpec) throws {
        guard let option = options.named(key) else {
            throw OptionError("unknown key (an effect takes \(options.map(\.name).joined(separator: ", ")))", at: "." + key)
        }
        do { try option.apply(.json(value), to: &spec) } catch let error as OptionError { throw OptionError(error.reason, at: "." + key) }
    }
}
