import Motion
import Support
import Typeset

/// What an animated item shows at one moment: its opacity, each line's opacity and rise, how
/// far each line's highlight has swept, how much text a typewriter has revealed, each word's
/// opacity and how strongly a restricted block's hidden lines are shown (blurred). Values are
/// rounded to 1/4096, so two frames that would draw the same pixels compare equal.
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

    /// Everything at its end: the item draws as in the still card.
    var isFinal: Bool {
        alpha == 1 && lineAlpha.allSatisfy { $0 == 1 } && lineRise.allSatisfy { $0 == 0 } && (sweep?.allSatisfy { $0 == 1 } ?? true)
            && revealed == nil && (wordAlpha?.allSatisfy { $0 == 1 } ?? true) && blur == 1
    }

    static func rounded(_ v: Double) -> Double { (v * 4096).rounded() / 4096 }
}

/// The parts of a text item effects stagger over, found once per animation: its shown lines
/// (a restricted block's visible ones), their words and grapheme clusters.
struct MotionParts {
    /// Indices into the layout's lines of those drawn sharp and not blank.
    let lines: [Int]
    /// UTF-8 ranges of the words of those lines, in reading order.
    let words: [Range<Int>]
    /// UTF-8 offsets where each grapheme cluster of those lines ends, in order.
    let clusterEnds: [Int]

    init(_ text: PlacedText) {
        let shown = text.restriction.map { min($0.visibleLines, text.layout.lines.count) } ?? text.layout.lines.count
        lines = (0..<shown).filter { !text.layout.lines[$0].isBlank }
        var words: [Range<Int>] = [], ends: [Int] = []
        let utf8 = Array(text.layout.text.utf8)
        for index in lines {
            let line = text.layout.lines[index]
            let start = max(0, min(line.start, utf8.count)), end = max(start, min(line.end, utf8.count))
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

    /// The indices of the words on `line` (words are in text order: a binary search finds the
    /// first, so a frame costs the words of the lines it draws, not all of them a line).
    func words(on line: Line) -> Range<Int> {
        var low = 0, high = words.count
        while low < high {
            let mid = (low + high) / 2
            if words[mid].upperBound > line.start { high = mid } else { low = mid + 1 }
        }
        var upper = low
        while upper < words.count && words[upper].lowerBound < line.end { upper += 1 }
        return low..<upper
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

extension Timeline {
    /// The state at `t` seconds of an item with `parts` (nil for a picture or dots, which have
    /// one part and only fade and rise).
    func state(at t: Double, parts: MotionParts?, lineCount: Int, lineHeights: [Double]) -> MotionState {
        var state = MotionState()
        state.lineAlpha = Array(repeating: 1, count: lineCount)
        state.lineRise = Array(repeating: 0, count: lineCount)
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
                for (order, index) in parts.lines.enumerated() {
                    let p = effect.progress(at: t, part: order)
                    state.lineAlpha[index] *= p
                    state.lineRise[index] += (1 - p) * 0.35 * lineHeights[index]
                }
            case .highlightSweep:
                guard let parts else { continue }
                var sweep = state.sweep ?? Array(repeating: 1, count: lineCount)
                for (order, index) in parts.lines.enumerated() { sweep[index] = effect.progress(at: t, part: order) }
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

extension SceneItem {
    /// When each of `effects` runs on this item, in seconds from the card's start: its begin,
    /// its end (the last line's or word's), the time between parts and how many parts (lines,
    /// words) it staggers over. What the layout dump reports.
    package func schedule(_ effects: [EffectSpec]) -> [(effect: Effect, begin: Double, end: Double, stagger: Double, parts: Int)] {
        var parts: MotionParts?
        if case let .text(text) = self { parts = MotionParts(text) }
        let count = { (effect: Effect) in parts?.count(effect) ?? 1 }
        return Timeline(effects, parts: count).effects.map { effect in
            (effect.effect, effect.begin, effect.end(parts: count(effect.effect)), effect.stagger, count(effect.effect))
        }
    }
}
