import Motion
import Support
import Typeset

/// What an animated item (or one of its animated spans) shows at one moment: its opacity, each
/// shown line's opacity and rise, how far each line's highlight has swept, how much text a
/// typewriter has revealed, each word's opacity, how strongly a restricted block's hidden lines
/// are shown (blurred) and its spans' own states. Line values follow `MotionParts.lines`.
/// Values are rounded to 1/4096, so two frames that would draw the same pixels compare equal.
struct MotionState: Hashable {
    var alpha = 1.0
    var lineAlpha: [Double] = []
    var lineRise: [Double] = []
    /// Fraction of each line's highlight drawn, nil: whole.
    var sweep: [Double]?
    /// Glyphs of clusters from this UTF-8 offset on are not drawn yet; nil: all are.
    var revealed: Int?
    /// Opacity of each word (`MotionParts.words`); nil: 1.
    var wordAlpha: [Double]?
    /// How much of a restricted block's blurred layer is shown.
    var blur = 1.0
    /// The item's animated spans (`MovingItem.spans`), each as it is at this moment.
    var spans: [MotionState] = []

    /// Everything at its end: the item draws as in the still card.
    var isFinal: Bool {
        alpha == 1 && lineAlpha.allSatisfy { $0 == 1 } && lineRise.allSatisfy { $0 == 0 } && (sweep?.allSatisfy { $0 == 1 } ?? true)
            && revealed == nil && (wordAlpha?.allSatisfy { $0 == 1 } ?? true) && blur == 1 && spans.allSatisfy(\.isFinal)
    }

    static func rounded(_ v: Double) -> Double { (v * 4096).rounded() / 4096 }
}

/// The parts of a text item (or of one of its spans) effects stagger over, found once per
/// animation: its shown lines (a restricted block's visible ones), their words and grapheme
/// clusters, within the span's bytes for a span.
struct MotionParts {
    /// Indices into the layout's lines of those drawn sharp and not blank (and, for a span,
    /// holding some of it), in order.
    let lines: [Int]
    /// UTF-8 ranges of the words of those lines, in reading order (cut at a span's ends).
    let words: [Range<Int>]
    /// UTF-8 offsets where each grapheme cluster of those lines ends, in order.
    let clusterEnds: [Int]

    init(_ text: PlacedText) {
        self.init(text.layout, shown: text.shownLines, utf8: Array(text.layout.text.utf8))
    }

    /// The parts of `layout`'s first `shown` lines, of bytes `bytes` of its text (`utf8`) only
    /// when given.
    init(_ layout: Layout, shown: Int, utf8: [UInt8], bytes: Range<Int>? = nil) {
        let shown = min(max(shown, 0), layout.lines.count)
        let candidates = bytes.map { layout.lines.overlapping($0.lowerBound, $0.upperBound).indices } ?? 0..<shown
        lines = candidates.filter { $0 < shown && !layout.lines[$0].isBlank }
        var words: [Range<Int>] = [], ends: [Int] = []
        let within = bytes ?? 0..<utf8.count
        for index in lines {
            let line = layout.lines[index]
            let start = max(0, line.start, within.lowerBound), end = max(start, min(line.end, utf8.count, within.upperBound))
            guard let part = String(validating: utf8[start..<end], as: UTF8.self) else { continue }
            var offset = start, wordStart: Int?
            for character in part {
                let length = character.utf8.count
                if character.isWhitespace {
                    if let s = wordStart { words.append(s..<offset); wordStart = nil }
                } else {
                    if wordStart == nil { wordStart = offset }
                    ends.append(offset + length)
                }
                offset += length
            }
            if let s = wordStart { words.append(s..<offset) }
        }
        self.words = words
        clusterEnds = ends
    }

    /// The word holding byte `offset`, nil for a space between words.
    func word(containing offset: Int) -> Int? {
        let index = firstWord(endingAfter: offset)
        return index < words.count && words[index].contains(offset) ? index : nil
    }

    /// The place of layout line `index` among `lines`, nil when it is not one of them.
    func order(ofLine index: Int) -> Int? {
        var low = 0, high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid] < index { low = mid + 1 } else { high = mid }
        }
        return low < lines.count && lines[low] == index ? low : nil
    }

    private func firstWord(endingAfter offset: Int) -> Int {
        var low = 0, high = words.count
        while low < high {
            let mid = (low + high) / 2
            if words[mid].upperBound > offset { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// How many parts an effect staggers over here.
    func count(_ effect: Effect) -> Int {
        switch effect {
        case .linesIn, .highlightSweep: lines.count
        case .wordsIn: words.count
        case .typewriter, .fade, .hold, .restricted: 1
        }
    }
}

extension PlacedText {
    /// How many of its lines are drawn sharp: all but a restricted block's hidden ones.
    var shownLines: Int { restriction.map { min($0.visibleLines, layout.lines.count) } ?? layout.lines.count }
}

extension Timeline {
    /// The state at `t` seconds of an item or span with `parts` (nil for a picture or dots,
    /// which have one part and only fade and rise); `lineHeights` follow `parts.lines`.
    func state(at t: Double, parts: MotionParts?, lineHeights: [Double]) -> MotionState {
        var state = MotionState()
        state.lineAlpha = Array(repeating: 1, count: lineHeights.count)
        state.lineRise = Array(repeating: 0, count: lineHeights.count)
        for effect in effects {
            switch effect.effect {
            case .fade:
                state.alpha *= effect.progress(at: t)
            case .linesIn:
                guard let parts else {
                    let p = effect.progress(at: t)
                    state.alpha *= p
                    continue
                }
                for order in parts.lines.indices {
                    let p = effect.progress(at: t, part: order)
                    state.lineAlpha[order] *= p
                    state.lineRise[order] += (1 - p) * 0.35 * lineHeights[order]
                }
            case .highlightSweep:
                guard let parts else { continue }
                var sweep = state.sweep ?? Array(repeating: 1, count: lineHeights.count)
                for order in parts.lines.indices { sweep[order] = effect.progress(at: t, part: order) }
                state.sweep = sweep
            case .typewriter:
                guard let parts, !parts.clusterEnds.isEmpty else { state.alpha *= effect.progress(at: t); continue }
                let p = effect.progress(at: t)
                if p < 1 {
                    let shown = Checked.clamped(p * Double(parts.clusterEnds.count), .down, in: 0...parts.clusterEnds.count)
                    state.revealed = min(state.revealed ?? .max, shown == 0 ? 0 : parts.clusterEnds[shown - 1])
                }
            case .wordsIn:
                guard let parts else { state.alpha *= effect.progress(at: t); continue }
                var alphas = state.wordAlpha ?? Array(repeating: 1, count: parts.words.count)
                for index in alphas.indices { alphas[index] *= effect.progress(at: t, part: index) }
                state.wordAlpha = alphas
            case .restricted:
                state.blur *= effect.progress(at: t)
            case .hold:
                continue
            }
        }
        state.alpha = MotionState.rounded(state.alpha)
        state.lineAlpha = state.lineAlpha.map(MotionState.rounded)
        state.lineRise = state.lineRise.map(MotionState.rounded)
        state.sweep = state.sweep?.map(MotionState.rounded)
        state.wordAlpha = state.wordAlpha?.map(MotionState.rounded)
        state.blur = MotionState.rounded(state.blur)
        return state
    }
}

/// When one effect runs, in seconds from the card's start: its begin, its end (the last line's
/// or word's), the time between parts and how many parts (lines, words) it staggers over.
/// What the layout dump reports.
package typealias EffectTiming = (effect: Effect, begin: Double, end: Double, stagger: Double, parts: Int)

extension Timeline {
    /// Each effect's timing over `parts` (nil: one part).
    static func timings(_ effects: [EffectSpec], parts: MotionParts?) -> [EffectTiming] {
        let count = { (effect: Effect) in parts?.count(effect) ?? 1 }
        return Timeline(effects, parts: count).effects.map { effect in
            (effect.effect, effect.begin, effect.end(parts: count(effect.effect)), effect.stagger, count(effect.effect))
        }
    }
}

extension SceneItem {
    /// When each of `effects` runs on this item.
    package func schedule(_ effects: [EffectSpec]) -> [EffectTiming] {
        var parts: MotionParts?
        if case let .text(text) = self { parts = MotionParts(text) }
        return Timeline.timings(effects, parts: parts)
    }
}

extension Layout {
    /// When each of a span's `effects` runs, the span being bytes `bytes` of this layout's text
    /// (`utf8`, its bytes, passed in so a dump of many spans converts the text once) of which the
    /// first `shownLines` lines are drawn.
    package func schedule(_ effects: [EffectSpec], bytes: Range<Int>, shownLines: Int, utf8: [UInt8]) -> [EffectTiming] {
        Timeline.timings(effects, parts: MotionParts(self, shown: shownLines, utf8: utf8, bytes: bytes))
    }
}
