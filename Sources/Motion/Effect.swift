/// The named effects a card's block can be animated with.
package enum Effect: String, CaseIterable, Sendable, Hashable {
    /// Each line fades in while rising a little, one after another (`stagger` apart).
    case linesIn = "lines-in"
    /// The highlight grows along each line in reading direction (right to left on a
    /// right-to-left line), one line after another; the joined outline is rebuilt each frame.
    case highlightSweep = "highlight-sweep"
    /// The text appears grapheme cluster by grapheme cluster (never half a cluster).
    case typewriter
    /// Each word fades in, `stagger` apart.
    case wordsIn = "words-in"
    /// The whole block fades in.
    case fade
    /// Nothing moves: a pause before the next effect of the block's list.
    case hold
    /// A restricted block's blurred lines fade in; they are blurred in every frame.
    case restricted

    /// Seconds the effect takes when the spec gives no `duration` (for a staggered effect:
    /// each line's or word's own part).
    package var defaultDuration: Double {
        switch self {
        case .linesIn: 0.6
        case .highlightSweep: 0.45
        case .typewriter: 1.5
        case .wordsIn: 0.4
        case .fade: 0.5
        case .hold: 1
        case .restricted: 0.6
        }
    }

    /// Seconds between one line's (or word's) start and the next's when the spec gives no
    /// `stagger`; nil for an effect on the block as a whole.
    package var defaultStagger: Double? {
        switch self {
        case .linesIn: 0.15
        case .highlightSweep: 0.45  // one line's sweep after the other's: the default duration
        case .wordsIn: 0.08
        case .typewriter, .fade, .hold, .restricted: nil
        }
    }
}

/// How an effect's progress follows time: CSS's named timing functions (cubic Béziers).
package enum Easing: String, CaseIterable, Sendable, Hashable {
    case linear, ease
    case easeIn = "ease-in", easeOut = "ease-out", easeInOut = "ease-in-out"

    /// The progress at linear time `x` (0...1, clamped), 0 at 0 and 1 at 1.
    package func callAsFunction(_ x: Double) -> Double {
        let x = min(max(x, 0), 1)
        switch self {
        case .linear: return x
        case .ease: return Easing.bezier(x, 0.25, 0.1, 0.25, 1)
        case .easeIn: return Easing.bezier(x, 0.42, 0, 1, 1)
        case .easeOut: return Easing.bezier(x, 0, 0, 0.58, 1)
        case .easeInOut: return Easing.bezier(x, 0.42, 0, 0.58, 1)
        }
    }

    /// CSS's cubic-bezier(x1, y1, x2, y2) at `x`: the curve's parameter found by bisection
    /// (x(t) rises monotonically for these control points), then y(t).
    private static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func at(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if at(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return at((lo + hi) / 2, y1, y2)
    }
}

/// One effect of a block's `animation` list, as the spec gives it.
package struct EffectSpec: Sendable, Hashable {
    package var effect: Effect
    /// Seconds (each line's or word's part for a staggered effect).
    package var duration: Double
    /// Seconds after the previous effect of the list ends (after 0 for the first).
    package var delay = 0.0
    /// Seconds from the card's start, instead of following the previous effect (effects that
    /// run together: `lines-in` with a `highlight-sweep` starting at 0).
    package var start: Double?
    /// Seconds between lines or words; nil: the effect's default.
    package var stagger: Double?
    package var easing = Easing.easeOut

    package init(_ effect: Effect, duration: Double? = nil) {
        self.effect = effect
        self.duration = duration ?? effect.defaultDuration
    }
}

/// An effect placed on the card's clock.
package struct ScheduledEffect: Sendable, Hashable {
    package let effect: Effect
    /// Seconds from the card's start.
    package let begin: Double
    package let duration: Double
    /// Seconds between parts (lines, words); 0 for the block as a whole.
    package let stagger: Double
    package let easing: Easing

    /// Eased progress (0...1) of part `index` (a line, a word) at time `t`.
    package func progress(at t: Double, part index: Int = 0) -> Double {
        let begin = begin + stagger * Double(index)
        guard t > begin else { return 0 }
        guard duration > 0, t < begin + duration else { return 1 }
        return easing((t - begin) / duration)
    }

    /// When the last of `parts` parts is done.
    package func end(parts: Int) -> Double { begin + stagger * Double(max(parts - 1, 0)) + duration }
}

/// A block's effects on the card's clock: each follows the one before it unless it names its
/// own `start`.
package struct Timeline: Sendable, Hashable {
    package let effects: [ScheduledEffect]

    /// `parts(effect)` says how many lines or words an effect staggers over (what the block
    /// holds), so a following effect starts once the last part is done.
    package init(_ specs: [EffectSpec], parts: (Effect) -> Int) {
        var clock = 0.0
        var placed: [ScheduledEffect] = []
        for spec in specs {
            let begin = (spec.start ?? clock) + spec.delay
            let effect = ScheduledEffect(effect: spec.effect, begin: begin, duration: spec.duration,
                                         stagger: spec.effect.defaultStagger == nil ? 0 : spec.stagger ?? spec.effect.defaultStagger!,
                                         easing: spec.easing)
            placed.append(effect)
            clock = effect.end(parts: parts(spec.effect))
        }
        effects = placed
    }

    /// The first effect of `kind`, if the block has one.
    package func first(_ kind: Effect) -> ScheduledEffect? { effects.first { $0.effect == kind } }
}
