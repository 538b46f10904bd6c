import FoundationEssentials
import Highlight
import Render
import Steps
import Typeset
import Support

extension BlockSettings {
    /// The font as parsed: a value naming a regular file (resolved by `resolve`, asked of
    /// `isFile`: the world's test) is that font file, anything else a Fontconfig pattern. The
    /// one rule for the render and for what a cache of its renders watches (`CardSpec.files`).
    package func fontSpec(resolve: (String) -> String = { $0 }, isFile: (String) -> Bool = World.diskIsRegularFile) throws -> FontSpec {
        try FontSpec.parse(font) { isFile(resolve($0)) }
    }

    /// The typesetter for these settings' font, and the font as parsed. A font file path goes
    /// through `resolve` (relative paths against a spec's folder), then `check`, which may
    /// refuse it.
    package func typesetter(library: FontLibrary, resolve: (String) -> String = { $0 },
                           isFile: (String) -> Bool = World.diskIsRegularFile,
                           check: (String) throws -> Void = { _ in }) throws -> (Typesetter, FontSpec) {
        var spec = try fontSpec(resolve: resolve, isFile: isFile)
        if let file = spec.file {
            spec.file = resolve(file)
            do {
                try check(resolve(file))
            } catch {
                throw CardError("font", "\(error)")
            }
        }
        if let weight { spec.weight = FontWeight.fontconfig(weight) }
        if let slant { spec.slant = slant.fontconfig }
        if let stretch { spec.width = stretch }
        var request = spec
        request.size = nil
        return (Typesetter(library: library, font: request), spec)
    }

    /// The typeset style at a size and wrap width (nil: no wrapping).
    package func style(size: Double, width: Double?, align: Alignment? = nil) -> TypesetStyle {
        var style = TypesetStyle(size: size, width: width, alignment: align ?? self.align ?? .start,
                                 lineSpacing: lineSpacing, direction: direction, language: lang)
        typography(&style)
        return style
    }
}

extension CardBuilder {
    /// The typesetter for a block's font (a font file path resolves against the spec's folder
    /// and passes the world's check).
    func typesetter(_ settings: BlockSettings) throws -> (Typesetter, FontSpec) {
        try settings.typesetter(library: engine.world.library, resolve: resolve, isFile: engine.world.isRegularFile,
                               check: engine.world.checkFontFile)
    }

    func style(_ settings: BlockSettings, size: Double, width: Double?, align: Alignment? = nil, layers: StyledText? = nil,
               markdown: MarkdownLayout? = nil) -> TypesetStyle {
        var style = settings.style(size: size, width: width, align: align)
        style.cancellation = job.cancellation
        if let layers { (style.runs, style.tags) = (layers.runs, layers.tags) }
        style.paragraphFormats = markdown?.formats ?? []
        return style
    }

    func measureText(_ settings: BlockSettings, fit: FitSpec?, availableWidth: Double?, path: String) throws -> MeasuredBlock {
        var settings = settings
        // A fitted block is display text, a headline sized to fill its box: balanced lines fill
        // the box evenly where greedy filling leaves a word alone on a line ("Stories" over
        // "disappear after a day..."), as CSS's text-wrap: balance does for headings. An
        // explicit wrap wins.
        if fit != nil, settings.wrap == nil { settings.wrap = .balance }
        let (typesetter, fontSpec) = try typesetter(settings)
        let requested = try settings.fontSize(spec: fontSpec)
        let layers = try settings.styledText(font: fontSpec, size: requested, path: path, read: readText)
        let text = layers.text
        // Markdown: its blocks' insets and hanging labels (measured at the requested size, in ems).
        let markdown = try layers.markdown.map { document in
            try MarkdownLayout(document, text: text) { label in
                try typesetter.layout(label, style: self.style(settings, size: requested, width: nil)).width / requested
            }
        }
        let style = { (settings: BlockSettings, size: Double, width: Double?) in
            self.style(settings, size: size, width: width, layers: layers, markdown: markdown)
        }
        let width = settings.width ?? availableWidth
        // Fontconfig, bidi, fallback and break opportunities once; sizes and widths after.
        let prepared = try typesetter.prepare(text, style: style(settings, requested, width))
        var size = requested
        var layout: Layout
        if let fit {
            let boxWidth = fit.width ?? width, boxHeight = fit.height ?? .infinity
            let wrap = [width, boxWidth].compactMap { $0 }.min()
            let layoutAt = Fit.Sizes { s in try typesetter.layout(prepared, style: style(settings, s, wrap)) }
            let fits = { (s: Double, l: Layout) -> Bool in
                // Measured as placed: the highlight's reach (padding and half its stroke) counts.
                let padY = settings.highlightPaint(fontSize: s)?.reach.y ?? 0
                return l.height + 2 * padY <= boxHeight && (fit.maxLines.map { l.lines.count <= $0 } ?? true)
            }
            let low = min(fit.minSize, requested)
            let chosen = try Fit.largest(low: low, high: requested) { s in
                let l = try layoutAt[s]
                return Fit.Probe(fits: fits(s, l), lines: l.lines.count)
            }
            if let chosen {
                size = chosen
                // A headline whose first line is one word ("Stories" over "disappear after a
                // day..."): the largest size on the grid a little smaller (down to 85%) that
                // pairs it with the next word, when one fits; else the largest as it is.
                if Fit.hasLoneFirstWord(try layoutAt[chosen]) {
                    var s = chosen - Fit.step
                    while s >= max(chosen * 0.85, low) {
                        let l = try layoutAt[s]
                        if fits(s, l) && !Fit.hasLoneFirstWord(l) { size = s; break }
                        s -= Fit.step
                    }
                }
                layout = try layoutAt[size]
            } else if let maxLines = fit.maxLines {
                size = min(fit.minSize, requested)
                var clamped = style(settings, size, wrap)
                clamped.maxLines = min(maxLines, settings.maxLines ?? maxLines)
                layout = try typesetter.layout(prepared, style: clamped)
                let padY = settings.highlightPaint(fontSize: size)?.reach.y ?? 0
                guard layout.height + 2 * padY <= boxHeight else {
                    throw CardError(join(path, "fit"), "\(maxLines) lines at min-size \(size) px are \(Checked.describe(layout.height.rounded())) px tall, over the box's \(Checked.describe(boxHeight)) px")
                }
            } else {
                throw CardError(join(path, "fit"), "the text does not fit \(boxWidth.map { "\(Int($0))" } ?? "unbounded")x\(Int(boxHeight)) px even at min-size \(fit.minSize) px (lower min-size or give max-lines)")
            }
        } else {
            layout = try typesetter.layout(prepared, style: style(settings, size, width))
        }
        // Without a set width the block is as wide as its widest line (so anchors and stacks
        // place the text, not the whole column); the same breaks fall at that width.
        if settings.width == nil, fit?.width == nil, layout.width > 0 {
            let natural = layout.lines.map(\.width).max() ?? 0
            if natural > 0 && natural < layout.width {
                // A clamped layout's text (with its ellipsis) is laid out as it stands.
                var narrow = style(settings, size, natural.nextUp)
                narrow.maxLines = nil
                (narrow.runs, narrow.tags) = (layout.styleRuns, layout.spans)
                let truncatedAt = layout.truncatedAt
                layout = try typesetter.layout(truncatedAt == nil ? prepared : typesetter.prepare(layout.text, style: narrow), style: narrow)
                layout.truncatedAt = truncatedAt
            }
        }
        let highlight = settings.highlightPaint(fontSize: size)
        let paint = settings.textPaint(highlight: highlight, background: groundColor, spans: layers.paints)
        // A span's highlight may reach further than the block's.
        let spanReach = layers.paints.compactMap(\.highlight?.reach)
        let padX = max(highlight?.reach.x ?? 0, spanReach.map(\.x).max() ?? 0)
        let padY = max(highlight?.reach.y ?? 0, spanReach.map(\.y).max() ?? 0)
        let restricted = try settings.restriction().map { restriction in
            settings.restrictMode == .blur
                ? RestrictedText(realGlyphs: layout, restriction: restriction)
                : try RestrictedText(scrambled: typesetter.scrambled(layout, fromLine: restriction.visibleLines,
                                                                     seed: settings.scrambleSeed ?? engine.world.random()),
                                     restriction: restriction)
        }
        let finalLayout = layout, finalSize = size, cut = layout.truncatedAt
        // Hidden lines are reported only as one region (their widths would tell the text).
        let shown = restricted.map { Array(layout.lines.prefix($0.restriction.visibleLines)) } ?? layout.lines
        // The block holds its lines: one wider than the wrap width (a letter and its hyphen at
        // --width 10, a word that cannot be broken) widens it, so a canvas fitted to the block
        // does not cut it off.
        let reach = max(layout.width, layout.lines.map { $0.x + $0.width }.max() ?? 0)
        return MeasuredBlock(width: reach + 2 * padX, height: layout.height + 2 * padY, droppedMarks: layout.droppedMarks) { x, y, _ in
            let origin = (x + padX, y + padY)
            let dump = try blockDump("text", x, y, finalLayout.width + 2 * padX, finalLayout.height + 2 * padY) {
                var extra: [(String, JSONValue)] = [("size", .number(finalSize))]
                if let cut { extra += [("truncated", .bool(true)), ("cut", .number(Double(cut)))] }
                if let restricted {
                    extra.append(("restricted_from_line", .number(Double(restricted.restriction.visibleLines))))
                    if let region = restrictedRegion(finalLayout, shown: shown.count, origin: origin) { extra.append(("restricted", region)) }
                }
                extra.append(("lines", .array(shown.map { lineDump($0, fonts: finalLayout.fonts, origin: origin) })))
                let spans = try LayoutJSON.spans(finalLayout, paints: paint.spans, shown: shown, size: finalSize, origin: origin,
                                                 scale: spec.scale, cancellation: job.cancellation)
                if !spans.isEmpty { extra.append(("spans", .array(spans))) }
                if let highlight {
                    var visible = finalLayout
                    visible.lines = shown
                    extra.append(("highlight", highlightDump(visible, highlight, origin: origin)))
                }
                return extra
            }
            var item = try restricted.map { try PlacedText(restricted: $0, x: origin.0, y: origin.1, paint: paint) }
                ?? PlacedText(layout: finalLayout, x: origin.0, y: origin.1, paint: paint)
            item.role = markdown.map { .paragraphs($0.roles, labels: $0.labels, depths: $0.depths) }
                ?? (settings.role == .artifact ? nil : .block(settings.role))
            item.language = settings.lang.isEmpty ? nil : settings.lang
            return PlacedBlock([.text(item)], dump)
        }
    }

    func measureSteps(_ settings: BlockSettings, fit: FitSpec?, availableWidth: Double?, path: String) throws -> MeasuredBlock {
        guard let available = availableWidth else { throw CardError(join(path, "steps"), "a steps block needs a card of fixed width") }
        let availableWidth = min(available, fit?.width ?? available)
        var texts = settings.steps ?? []
        if let file = settings.stepsFile {
            texts = try readText(file, at: join(path, "steps-file")).split(whereSeparator: \.isNewline).map(String.init)
        }
        texts = texts.filter { !$0.allSatisfy(\.isWhitespace) }
        guard !texts.isEmpty else { throw CardError(join(path, "steps"), "has no steps") }
        if let current = settings.current, current > texts.count {
            throw CardError(join(path, "current"), "must be between 1 and \(texts.count) (the number of steps), got \(current)")
        }
        let (typesetter, fontSpec) = try typesetter(settings)
        let requested = try settings.fontSize(spec: fontSpec)
        let rich = try texts.enumerated().map { i, text in
            guard settings.stepsMarkup else { return RichText(plain: text) }
            do { return try RichText(markup: text, linkSchemes: settings.linkSchemes) } catch let error as OptionError { throw CardError(join(join(path, "steps"), i), error.message) }
        }
        // Dots, gaps and highlight padding scale with the size: the whole indicator grows or
        // shrinks together.
        let stepsAt = { (size: Double) throws -> StepsBlock in
            do {
                return try StepsBlock.layout(rich, settings: settings, size: size, width: availableWidth,
                                             highlight: settings.highlightPaint(fontSize: size), typesetter: typesetter, fontSpec: fontSpec,
                                             style: { self.style(settings, size: size, width: $0, align: $1) })
            } catch let error as OptionError where settings.stepsMarkup {
                throw CardError(join(path, "steps"), error.message)
            }
        }
        var size = requested
        let steps: StepsBlock
        if let fit, let boxHeight = fit.height {
            let blocks = Fit.Sizes(stepsAt)
            let chosen = try Fit.largest(low: min(fit.minSize, requested), high: requested) { s in
                let block = try blocks[s]
                return Fit.Probe(fits: block.height <= boxHeight, lines: block.layouts.reduce(0) { $0 + $1.lines.count })
            }
            guard let chosen else {
                throw CardError(join(path, "fit"), "the steps do not fit \(Int(availableWidth))x\(Int(boxHeight)) px even at min-size \(fit.minSize) px (lower min-size)")
            }
            size = chosen
            steps = try blocks[chosen]
        } else {
            steps = try stepsAt(size)
        }
        let highlight = settings.highlightPaint(fontSize: size)
        let paint = settings.textPaint(highlight: highlight, background: groundColor)
        let dotColor = settings.dotColor ?? settings.color ?? contrasting(groundColor, over: .white)
        return MeasuredBlock(width: availableWidth, height: steps.height, droppedMarks: steps.layouts.reduce(0) { $0 + $1.droppedMarks }) { x, y, _ in
            let placed = try steps.items(x: x, y: y, paint: paint, dotColor: dotColor)
            return PlacedBlock(placed, blockDump("steps", x, y, availableWidth, steps.height) {
                [("size", .number(size)), ("steps", .array(steps.dump(x: x, y: y, scale: self.spec.scale)))]
            })
        }
    }

    func lineDump(_ line: Line, fonts: [FontFace], origin: (Double, Double)) -> JSONValue {
        LayoutJSON.line(line, fonts: fonts, originX: origin.0, originY: origin.1, scale: spec.scale)
    }

    /// The hidden lines as one box (their own widths would tell the text), or nil when every
    /// line shows.
    func restrictedRegion(_ layout: Layout, shown: Int, origin: (Double, Double)) -> JSONValue? {
        guard shown < layout.lines.count else { return nil }
        let top = shown == 0 ? layout.lines[0].top : layout.lines[shown - 1].bottom
        let s = spec.scale
        return .members([("x", px(origin.0, s)), ("top", px(origin.1 + top, s)),
                         ("width", px(layout.width, s)), ("height", px(layout.height - top, s))])
    }

    func highlightDump(_ layout: Layout, _ paint: HighlightPaint, origin: (Double, Double)) -> JSONValue {
        let outline = layout.highlightOutline(paint.style)
        let s = spec.scale
        return .object([("path", .string(outline.svgPath(scale: s, dx: origin.0 * s, dy: origin.1 * s))),
                        ("contours", .number(Double(outline.contours.count)))])
    }
}
