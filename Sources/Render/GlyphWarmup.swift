import CCairo
import Support
import Typeset

/// Rasterises a scene's glyphs into Cairo's glyph caches while the caller makes and paints
/// the canvas: drawing the text then composites cached glyph images. The helper thread takes
/// the scaled fonts from the first; the caller, once its canvas is painted, takes them from the
/// last (Cairo locks a scaled font while it draws, so two threads gain on two fonts, not on
/// one). On the 3-paragraph benchmark the rasterising is 2 ms (1.3 of it the CJK font), the
/// canvas (memory faulted in, background painted) 0.9 ms. Only in a one-shot process drawing an
/// image: a batch's or the service's other core is busy with other images, and a PDF embeds
/// outlines, not glyph images.
///
/// The glyphs are shown on a 1x1 scratch image with the scene's font faces, matrices, font
/// options and scale, which is what Cairo keys its scaled fonts and glyph images on; where they
/// are shown does not matter (an image surface rounds glyph positions to whole pixels: after
/// the warm-up the benchmark's draw rasterised no glyph itself, counted with a uprobe on
/// FT_Render_Glyph). The pixels drawn are the same whether a glyph was warmed or not.
struct GlyphWarmup {
    /// More distinct glyphs than Cairo's caches keep would evict each other before the draw.
    static let limit = 4096
    private let work: Work
    private let helper: HelperThread
    private let task: Int

    /// Starts warming `scene`'s glyphs on `helper` (the font context's, in a one-shot
    /// process) when it pays (see above), else nil.
    static func start(_ scene: Scene, faces: FontFaces, format: OutputFormat, scale: Double, helper: HelperThread?) -> GlyphWarmup? {
        guard !format.isVector, let helper else { return nil }
        let runs = distinctGlyphs(scene, scale: scale)
        guard !runs.isEmpty else { return nil }
        let work = Work(runs: runs, faces: faces, scale: scale)
        return GlyphWarmup(work: work, helper: helper, task: helper.submit { work.rasterise(fromFirst: true) })
    }

    /// Rasterises the fonts the helper has not begun, then waits for it: call before the first
    /// glyph is drawn.
    func finish() {
        work.rasterise(fromFirst: false)
        wait()
    }

    /// Waits for the helper's part; call before the faces are let go (again: returns at once).
    func wait() { helper.wait(for: task) }

    /// The scaled fonts to warm, taken one at a time from either end.
    final class Work: @unchecked Sendable {
        let runs: [(layout: Layout, run: GlyphRun, ids: [UInt32])]
        let faces: FontFaces
        let scale: Double
        private let lock = Lock()
        private var first = 0, last: Int

        init(runs: [(layout: Layout, run: GlyphRun, ids: [UInt32])], faces: FontFaces, scale: Double) {
            (self.runs, self.faces, self.scale, last) = (runs, faces, scale, runs.count)
        }

        func take(fromFirst: Bool) -> Int? {
            lock.withLock {
                guard first < last else { return nil }
                if fromFirst { first += 1; return first - 1 }
                last -= 1
                return last
            }
        }

        func rasterise(fromFirst: Bool) {
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return }
            defer { cairo_surface_destroy(surface) }
            guard let cr = cairo_create(surface) else { return }
            defer { cairo_destroy(cr) }
            cairo_scale(cr, scale, scale)
            while let index = take(fromFirst: fromFirst) {
                let (layout, run, ids) = runs[index]
                TextPainter.setFontOptions(cr, for: layout)
                TextPainter(layout: layout, faces: faces).setFont(cr, run)
                // Half an em left of and below the pixel: the glyphs' ink (mostly within the em
                // box right of the origin and above the baseline) then spans the pixel. Cairo
                // draws nothing, and caches nothing, for glyphs whose boxes all miss the surface.
                var glyphs = ids.map { cairo_glyph_t(index: UInt($0), x: -run.size / 2, y: run.size / 2) }
                cairo_show_glyphs(cr, &glyphs, Int32(glyphs.count))
            }
        }
    }

    /// A font at a size and slant: what a scaled font is made of.
    private struct Key: Hashable {
        var layout: Int, font: Int, size: Double, oblique: Bool
    }

    /// Each scaled font's glyphs, each once, with a run that sets that font.
    static func distinctGlyphs(_ scene: Scene, scale: Double) -> [(layout: Layout, run: GlyphRun, ids: [UInt32])] {
        var order: [(layout: Layout, run: GlyphRun, ids: [UInt32])] = [], slot: [Key: Int] = [:], seen: [Key: Set<UInt32>] = [:]
        var total = 0
        for case let (index, .text(text)) in scene.items.enumerated() {
            for line in text.layout.lines {
                // Glyphs drawn past GlyphRaster.maxEm are never cached whole; glyphs that cannot
                // reach the canvas are never drawn: neither is rasterised here.
                for run in line.runs where !run.glyphs.isEmpty && !GlyphRaster.isLarge(size: run.size, scale: scale) {
                    let key = Key(layout: index, font: run.font, size: run.size, oblique: run.metrics.oblique)
                    let k = slot[key] ?? {
                        order.append((text.layout, run, []))
                        slot[key] = order.count - 1
                        return order.count - 1
                    }()
                    let reach = run.size * 2
                    for glyph in run.glyphs where total < limit {
                        let x = text.x + glyph.x, y = text.y + glyph.y
                        guard x > -reach, y > -reach, x < scene.width + reach, y < scene.height + reach,
                              seen[key, default: []].insert(glyph.id).inserted else { continue }
                        order[k].ids.append(glyph.id)
                        total += 1
                    }
                }
            }
        }
        return order.filter { !$0.ids.isEmpty }
    }
}
