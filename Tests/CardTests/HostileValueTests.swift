import Card
import Pages
import Render
import Support
import Testing
import TestSupport
import Typeset

/// Every public entry where a number goes, driven with hostile numbers: a value outside what the
/// entry takes is a thrown error, never a trap (a trap ends this test process, which fails the
/// run). Values the entry does take (0, -1 for signed offsets) may succeed.
@Suite struct HostileValueTests {
    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, -1, 0, Double(Int.max)]

    /// Whether `value` can never be a valid length, size, sigma, quality or position.
    static func absurd(_ value: Double) -> Bool { !value.isFinite || abs(value) > 1e15 }

    /// Runs `body`; an absurd value must throw, and nothing may trap.
    func check(_ value: Double, _ what: String, _ body: () throws -> Void) {
        do {
            try body()
            #expect(!Self.absurd(value), "\(what) took \(value)")
        } catch {
            #expect(!"\(error)".isEmpty)
        }
    }

    static let tiny = try! RasterImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))

    func render(_ scene: Scene, format: OutputFormat = .png) throws {
        var options = RenderOptions()
        options.format = format
        options.maxPixels = 4_000_000
        _ = try engine.renderer.render(scene, options: options)
    }

    @Test(arguments: hostile) func effectsAndScalars(value: Double) {
        check(value, "shadow dx") { _ = try TextShadow(dx: value, dy: 0, blur: 1, color: .black) }
        check(value, "shadow dy") { _ = try TextShadow(dx: 0, dy: value, blur: 1, color: .black) }
        check(value, "shadow blur") { _ = try TextShadow(dx: 0, dy: 0, blur: value, color: .black) }
        check(value, "stroke width") { _ = try TextStroke(width: value, color: .black) }
        check(value, "sigma") { _ = try Sigma(value) }
        check(value, "fraction") { _ = try Fraction(value, "dim") }
        check(value, "quality") {
            // JSON and flags give whole numbers; Int(exactly:) refuses the rest without trapping.
            guard let n = Int(exactly: value) else { throw TestFailure("\(value) is not a whole number") }
            _ = try Quality(n)
        }
        check(value, "gradient stop") { _ = try GradientStop(color: .black, position: value) }
        check(value, "checked int") { _ = try Checked.int(value, "n") }
        check(value, "restriction sigma") { _ = try Restriction(visibleLines: 1, sigma: value, feather: 4) }
        check(value, "restriction feather") { _ = try Restriction(visibleLines: 1, sigma: 4, feather: value) }
        check(value, "page width") { _ = try PageSize(width: value, height: 100) }
        check(value, "page margin") { _ = try PageMargins(top: value, right: 0, bottom: 0, left: 0) }
    }

    @Test(arguments: [Int.max, Int.min, -1, 0, 1 << 40]) func imagesAndCounts(n: Int) {
        do {
            _ = try RasterImage(width: n, height: 2, pixels: [UInt8](repeating: 0, count: 16))
            #expect(n == 2)
        } catch {}
        do {
            _ = try Quality(n)
            #expect((1...100).contains(n))
        } catch {}
        do {
            _ = try Restriction(visibleLines: n, sigma: 4, feather: 4)
            #expect(n >= 0)
        } catch {}
    }

    @Test(arguments: hostile) func typesetStyle(value: Double) throws {
        let typesetter = Typesetter(library: Fixtures.library, font: try FontSpec.parse("Noto Sans") { _ in false })
        let styles: [(String, (inout TypesetStyle) -> Void)] = [
            ("size", { $0.size = value }), ("width", { $0.width = value }), ("line spacing", { $0.lineSpacing = value }),
            ("line height", { $0.lineHeight = value }), ("letter spacing", { $0.letterSpacing = value }),
            ("word spacing", { $0.wordSpacing = value }),
            ("hyphen-min", { $0.hyphenMin = (Self.absurd(value) ? Int.max : Int(value), 2) }),
            ("max lines", { $0.maxLines = Self.absurd(value) ? Int.min : Int(value) }),
        ]
        for (name, set) in styles {
            var style = TypesetStyle(size: 20)
            set(&style)
            check(value, name) { _ = try typesetter.layout("hello world", style: style) }
        }
    }

    @Test(arguments: hostile) func sceneItems(value: Double) throws {
        let layout = try Fixtures.layout("hi", size: 20)
        check(value, "text x") { try render(Scene(width: 100, height: 100, background: .color(.white),
                                                  items: [.text(try PlacedText(layout: layout, x: value, y: 0))])) }
        check(value, "scene width") { try render(Scene(width: value, height: 100, background: .color(.white), items: [])) }
        check(value, "scene height") { try render(Scene(width: 100, height: value, background: .color(.white), items: []), format: .pdf) }
        check(value, "image item") { try render(Scene(width: 100, height: 100, background: .color(.white),
                                                      items: [.image(Self.tiny, x: value, y: 0, width: value, height: 10, radius: value)])) }
        check(value, "dot") { try render(Scene(width: 100, height: 100, background: .color(.white),
                                               items: [.dots([DotMark(centerX: value, centerY: 10, diameter: value, style: .current)],
                                                             color: .black, connector: (value, 0, value))])) }
        check(value, "gradient angle") { try render(Scene(width: 100, height: 100,
                                                          background: .linearGradient(angle: value, stops: [try GradientStop(color: .black),
                                                                                                            try GradientStop(color: .white)]),
                                                          items: [])) }
        check(value, "background blur") { try render(Scene(width: 100, height: 100,
                                                           background: .image(Self.tiny, fit: .cover, blur: try Sigma(value), dim: .zero, color: .white),
                                                           items: [])) }
        check(value, "shadow on text") {
            let paint = TextPaint(shadow: try TextShadow(dx: value, dy: value, blur: 2, color: .black))
            try render(Scene(width: 100, height: 100, background: .color(.white),
                             items: [.text(try PlacedText(layout: layout, x: 0, y: 0, paint: paint))]))
        }
    }

    /// Card specs: every numeric key with 1e300 and -1e300 (JSON has no NaN or infinity).
    @Test(arguments: [1e300, -1e300]) func cardSpecNumbers(value: Double) throws {
        let n = Checked.describe(value)
        let specs = [
            #"{"size": [\#(n), 100]}"#, #"{"scale": \#(n)}"#, #"{"padding": \#(n)}"#,
            #"{"background": {"gradient": {"angle": \#(n), "stops": ["red", "blue"]}}}"#,
            #"{"blocks": [{"type": "text", "text": "a", "size": \#(n)}]}"#,
            #"{"blocks": [{"type": "text", "text": "a", "width": \#(n)}]}"#,
            #"{"blocks": [{"type": "text", "text": "a", "offset": [\#(n), 0]}]}"#,
            #"{"blocks": [{"type": "text", "text": "a", "fit": {"height": \#(n)}}]}"#,
            #"{"blocks": [{"type": "text", "text": "a", "max-lines": \#(n)}]}"#,
            #"{"blocks": [{"type": "text", "text": "a", "line-height": \#(n)}]}"#,
            #"{"blocks": [{"type": "text", "text": "a", "visible-lines": \#(n)}]}"#,
            #"{"blocks": [{"type": "steps", "steps": ["a", "b"], "current": \#(n)}]}"#,
            #"{"blocks": [{"type": "steps", "steps": ["a", "b"], "gap": \#(n)}]}"#,
            #"{"blocks": [{"type": "stack", "gap": \#(n), "blocks": [{"type": "text", "text": "a"}]}]}"#,
        ]
        let engine = Engine(world: World(fonts: engine.world.fonts, maxPixels: 4_000_000) { _ in throw TestFailure("no files") })
        for spec in specs {
            do {
                _ = try engine.render(try JSONValue.parse(Array(spec.utf8)), variables: [:], folder: ".", job: Job(format: .png))
                Issue.record("\(spec) was accepted")
            } catch {
                #expect(!"\(error)".isEmpty)
            }
        }
    }
}
