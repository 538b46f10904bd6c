import CHarfBuzz

/// The span styles of a prepared text: style 0 is the block's own, each other one distinct
/// `SpanShaping` with the font chain its font asks for. Size-independent, made once.
struct SpanStyles {
    var shapings: [SpanShaping] = [SpanShaping()]
    var chains: [FontChain]
    /// Each styled range's style index.
    private var ranges = RangeIndex<Int>()

    /// The block's font asks for italic.
    var blockItalic: Bool

    /// `pinnedFirst`: chains may be the pinned fonts' part only (see `FontLibrary.chain`).
    init(runs: [StyledRange], block: FontSpec, library: FontLibrary, pinnedFirst: Bool = false) throws {
        chains = [try library.chain(for: block, pinnedFirst: pinnedFirst)]
        blockItalic = block.slant > 0
        var index: [SpanShaping: Int] = [SpanShaping(): 0]
        var lastEnd = 0
        var styled: [(start: Int, end: Int, value: Int)] = []
        for run in runs {
            guard run.start >= lastEnd else { throw TypesetError.invalidSpan(run.start, run.end, lastEnd) }
            lastEnd = run.end
            guard !run.shaping.isPlain else { continue }
            let style: Int
            if let known = index[run.shaping] {
                style = known
            } else {
                style = shapings.count
                index[run.shaping] = style
                shapings.append(run.shaping)
                chains.append(try run.shaping.font.map { try library.chain(for: $0, pinnedFirst: pinnedFirst) } ?? chains[0])
            }
            styled.append((run.start, run.end, style))
        }
        ranges = RangeIndex(styled)
    }

    var isPlain: Bool { ranges.isEmpty }

    /// The style of the byte at `offset`.
    func style(at offset: Int) -> Int { ranges.value(at: offset) ?? 0 }
}

/// A span style at one layout's size: what shaping and line metrics read per run.
struct RunStyle {
    var chain: FontChain
    var size: Double
    /// Baseline raised by this many px.
    var rise = 0.0
    var letterSpacing: Double
    var features: [hb_feature_t]
    var language: hb_language_t?
    /// Italic asked for: a face that is not italic is slanted when drawn.
    var italic = false

    /// Every style of `styles` resolved against the block's `style`; `font` makes a shaping font.
    static func resolve(_ styles: SpanStyles, block style: TypesetStyle,
                        font: (FontFace, Double) throws -> ShapingFont) throws -> [RunStyle] {
        let blockLanguage = LanguageTags.harfBuzz(style.language)
        return try styles.shapings.indices.map { i in
            let shaping = styles.shapings[i], chain = styles.chains[i]
            var size = shaping.size?.resolved(fontSize: style.size) ?? style.size
            var rise = 0.0
            switch shaping.shift {
            case .none: break
            case let .rise(px): rise = px
            case .sub, .sup:
                let position = try font(chain.primary.face, size).scriptPosition(superscript: shaping.shift == .sup)
                size *= position.scale
                rise = position.rise
            }
            guard TypesetStyle.sizeRange.contains(size) else { throw TypesetError.outOfRange("span size", size, TypesetStyle.sizeRange) }
            let letterSpacing = shaping.letterSpacing ?? style.letterSpacing
            let features = (shaping.features ?? style.features).after(letterSpacing != 0 ? "liga=0,clig=0,dlig=0" : "")
            let language = shaping.language.map { LanguageTags.harfBuzz($0) } ?? blockLanguage
            return RunStyle(chain: chain, size: size, rise: rise, letterSpacing: letterSpacing, features: features,
                            language: language, italic: shaping.font.map { $0.slant > 0 } ?? styles.blockItalic)
        }
    }
}
