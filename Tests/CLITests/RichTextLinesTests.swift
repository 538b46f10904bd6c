import Codecs
import Render
import Compare
import Foundation
import TestSupport
import Testing

/// Decorations and positions of spans, measured in dumps and pixels.
@Suite struct RichTextLinesTests {
    private func run(_ arguments: [String]) throws -> (dump: [String: Any], png: RGBAImage?) {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.png").path
        let result = try CLI.run(["render", "--size", "40", "--margin", "10", "--background", "white", "--color", "black",
                                  "-o", out, "--dump-layout", "-"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let png = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        return (try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any], png)
    }

    /// Rows (y) with a dark pixel, below `from`.
    private func darkRows(_ image: RGBAImage, below from: Int) -> [Int] {
        (from..<image.height).filter { y in
            (0..<image.width).contains { x in image.pixels[(y * image.width + x) * 4] < 128 }
        }
    }

    @Test func theUnderlineSitsWhereTheFontSaysAndTheStrikeThroughCrossesTheText() throws {
        // "mmm" has no descenders: below the baseline only the underline can be dark.
        let plain = try run(["--text", "mmm"])
        let underlined = try run(["--markup", "<u>mmm</u>"])
        let baseline = Int((((plain.dump["lines"] as! [[String: Any]])[0]["baseline"]) as! Double).rounded())
        #expect(darkRows(plain.png!, below: baseline + 1).isEmpty)
        let rows = darkRows(underlined.png!, below: baseline + 1)
        // Noto Sans: underline position -0.1 em, thickness 0.05 em: at 40 px, rows ~3-6 below the baseline.
        #expect(!rows.isEmpty && rows.first! <= baseline + 5 && rows.count <= 4, "\(rows) baseline \(baseline)")
        let struck = try run(["--markup", "<s>mmm</s>"])
        let inside = { (image: RGBAImage, y: Int) in (0..<image.width).filter { image.pixels[(y * image.width + $0) * 4] < 128 }.count }
        // A bar across the x-height (Noto Sans: 0.32 em up): the rows it darkens are there.
        let added = (baseline - 30..<baseline).filter { inside(struck.png!, $0) > inside(plain.png!, $0) + 20 }
        #expect(!added.isEmpty && added.allSatisfy { (baseline - 16...baseline - 9).contains($0) }, "\(added) baseline \(baseline)")
    }

    @Test func subAndSuperscriptsMoveAndShrink() throws {
        let json = try run(["--markup", "x<sup>2</sup>y<sub>3</sub>"]).dump
        let spans = json["spans"] as! [[String: Any]]
        let sup = spans.first { ($0["style"] as! [String: Any])["baseline-shift"] as? String == "super" }!
        let sub = spans.first { ($0["style"] as! [String: Any])["baseline-shift"] as? String == "sub" }!
        let top = { (span: [String: Any]) in ((span["boxes"] as! [[String: Any]])[0]["top"] as! Double) }
        #expect(top(sup) < top(sub) - 10)
        // Set smaller (the font's OS/2 script size): its box is lower than a 40 px line's 54 px.
        let height = ((sup["boxes"] as! [[String: Any]])[0]["height"] as! Double)
        #expect(height < 40, "\(sup)")
    }

    @Test func theEllipsisTakesTheStyleWhereTheCutIs() throws {
        let json = try run(["--width", "260", "--max-lines", "1", "--markup", "plain <b>bold words that go on and on</b> end"]).dump
        let line = (json["lines"] as! [[String: Any]])[0]
        #expect((line["text"] as! String).hasSuffix("…"))
        let bold = (json["spans"] as! [[String: Any]])[0]
        #expect(bold["end"] as? Int == line["end"] as? Int, "\(bold) \(line)")
    }
}

/// Justification, letter spacing and hyphenation across span edges.
@Suite struct RichTextSpacingTests {
    private func lines(_ arguments: [String], png: String? = nil) throws -> [[String: Any]] {
        let result = try CLI.run(["render", "--size", "40", "--no-system-fonts", "--dump-layout", "-"]
                                 + (png.map { ["-o", $0] } ?? []) + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return (try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any])["lines"] as! [[String: Any]]
    }

    private func widths(_ lines: [[String: Any]]) -> [Double] { lines.map { $0["width"] as! Double } }

    @Test func justifiedLinesFillTheWidthWhateverTheirSpans() throws {
        let markup = "The quick <b>brown fox jumps over</b> the <span size='56pt'>lazy</span> dog and keeps on running through the <i>long grass</i> all day"
        let justified = try lines(["--width", "500", "--align", "justify", "--markup", markup])
        #expect(justified.count >= 4)
        // Every line but the last is stretched to the full width, a bold or larger span in it or not.
        #expect(widths(justified).dropLast().allSatisfy { abs($0 - 500) < 0.01 }, "\(widths(justified))")
        #expect(widths(justified).last! < 400)
        // The same breaks as left-aligned: justifying moves words, it does not re-break.
        let left = try lines(["--width", "500", "--markup", markup])
        #expect(left.map { $0["start"] as! Int } == justified.map { $0["start"] as! Int })
    }

    @Test func letterSpacingIsTheSameAcrossColourAndWeightEdges() throws {
        // The spacing a line gains does not depend on where spans start or end.
        for markup in ["spacing here", "spa<span color='red'>cing</span> here", "spa<b>cing</b> h<i>ere</i>"] {
            let tight = widths(try lines(["--markup", markup]))[0]
            let spaced = widths(try lines(["--markup", markup, "--letter-spacing", "6"]))[0]
            // 12 clusters, each followed by the spacing.
            #expect(abs(spaced - tight - 72) < 0.01, "\(markup): \(spaced - tight)")
        }
        // A span's own letter spacing (Pango: 1024ths of a point) adds only inside the span.
        let own = widths(try lines(["--markup", "spacing <span letter_spacing='10240'>here</span>"]))[0]
        let plain = widths(try lines(["--markup", "spacing here"]))[0]
        #expect(abs(own - plain - 40) < 0.01, "\(own - plain)")
        // The span's spacing replaces the block's inside it: 8 clusters outside gain 6 px each.
        let both = widths(try lines(["--markup", "spacing <span letter_spacing='10240'>here</span>", "--letter-spacing", "6"]))[0]
        #expect(abs(both - own - 48) < 0.01, "\(both - own)")
    }

    @Test func cjkBreaksAndWrapModesIgnoreColourSpans() throws {
        // Japanese breaks between characters; colour spans every few characters change nothing.
        let japanese = "春はあけぼの。やうやう白くなりゆく山ぎは、すこしあかりて、紫だちたる雲のほそくたなびきたる。"
        var marked = "", n = 0
        for ch in japanese {
            marked += n % 5 == 0 ? "<span color='#C33764'>\(ch)</span>" : String(ch)
            n += 1
        }
        let starts = { (lines: [[String: Any]]) in lines.map { $0["start"] as! Int } }
        let plain = try lines(["--width", "300", "--text", japanese])
        let coloured = try lines(["--width", "300", "--markup", marked])
        #expect(plain.count >= 3 && starts(plain) == starts(coloured))
        // Balanced wrapping works across span edges too: the same lines as greedy, more even.
        let text = "A caption with <b>bold words</b> and <span size='48pt'>a larger</span> phrase that ends here"
        let greedy = widths(try lines(["--width", "400", "--markup", text]))
        let balanced = widths(try lines(["--width", "400", "--wrap", "balance", "--markup", text]))
        #expect(greedy.count == balanced.count && greedy.count >= 2)
        #expect(balanced.max()! - balanced.min()! < greedy.max()! - greedy.min()!, "\(balanced) vs \(greedy)")
    }

    @Test func aHyphenAtASpanEdgeTakesTheStyleWhereTheWordIsCut() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("hyphen.png").path
        let broken = try lines(["--width", "300", "--hyphenate", "--lang", "en", "--background", "white", "--color", "black",
                                "--markup", "an extra<b>ordinarily</b> <span color='red'>incompre</span>hensible word"], png: png)
        // Words are cut inside the bold and inside the red span, at the dictionary's hyphens.
        #expect(broken.map { $0["text"] as! String } == ["an extraordi", "narily incom", "prehensible ", "word"])
        try Golden.check(try [UInt8](Data(contentsOf: URL(fileURLWithPath: png))), area: "rich",
                         name: "aHyphenAtASpanEdgeTakesTheStyleWhereTheWordIsCut", maxDiffPixels: 20)
    }
}

/// Spans across scripts and a span's own highlight keys.
@Suite struct RichTextSpanTests {
    private func block(_ spec: String) throws -> [String: Any] {
        let result = try CLI.run(["card", "-", "--dump-layout", "-"], stdin: Array(spec.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        return (json["blocks"] as! [[String: Any]])[0]
    }

    @Test func aBoldSpanFallsBackAndCrossesADirectionChange() throws {
        let b = try block(##"{"size": "900x300", "blocks": [{"type": "text", "markup": "hello <b>world مرحبا 春</b> end"}]}"##)
        let line = (b["lines"] as! [[String: Any]])[0]
        #expect(Set(line["fonts"] as! [String]) == ["Noto Sans", "Noto Sans Arabic", "Noto Sans CJK JP"], "\(line)")
        let boxes = ((b["spans"] as! [[String: Any]])[0]["boxes"] as! [[String: Any]])
        // Visually one stretch: the Arabic run sits inside the left-to-right line, after "world".
        #expect(boxes.count == 1 && (boxes[0]["width"] as! Double) > 200, "\(boxes)")
    }

    @Test func aSpanTakesItsOwnPaddingAndRadius() throws {
        func path(_ extra: String) throws -> String {
            let b = try block(##"{"size": "600x200", "blocks": [{"type": "text", "spans": [{"text": "a "}, {"text": "word", "highlight": "#FFE066""## + extra + ##"}]}]}"##)
            let span = (b["spans"] as! [[String: Any]]).first { $0["highlight"] != nil }!
            return (span["highlight"] as! [String: Any])["path"] as! String
        }
        let plain = try path(""), padded = try path(##", "padding": 20, "radius": 0"##)
        #expect(plain != padded)
        // No arcs with radius 0: the padded shape is a plain rectangle.
        #expect(!padded.contains("A") && plain.contains("A"), "\(padded)")
    }
}
