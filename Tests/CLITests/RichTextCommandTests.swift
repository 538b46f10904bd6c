import Foundation
import TestSupport
import Testing

/// Rich text end to end: markup and spans through the CLI into images, PDFs and dumps.
@Suite struct RichTextCommandTests {
    private func dump(_ arguments: [String]) throws -> [String: Any] {
        let result = try CLI.run(["render", "--size", "40", "--no-system-fonts", "--dump-layout", "-"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
    }

    private func lines(_ json: [String: Any]) -> [[String: Any]] { json["lines"] as! [[String: Any]] }
    private func spans(_ json: [String: Any]) -> [[String: Any]] { json["spans"] as? [[String: Any]] ?? [] }

    @Test func aLargerSpanMakesItsLineTallerOnTheSameBaseline() throws {
        let plain = lines(try dump(["--text", "a price of 9.99"]))[0]
        let json = try dump(["--markup", "a price of <span size=\"80pt\" weight=\"bold\">9.99</span>"])
        let line = lines(json)[0]
        #expect((line["height"] as! Double) > (plain["height"] as! Double) * 1.6)
        // The big span's box and the line share the baseline: the box's bottom is the baseline plus its descent.
        let box = (spans(json)[0]["boxes"] as! [[String: Any]])[0]
        let baseline = line["baseline"] as! Double, bottom = (box["top"] as! Double) + (box["height"] as! Double)
        #expect(bottom > baseline && bottom - baseline < 30, "\(box) \(line)")
        #expect((spans(json)[0]["style"] as! [String: Any])["size"] as? Double == 80)
    }

    @Test func aSpanHighlightJoinsAcrossLinesIntoOneShape() throws {
        let json = try dump(["--width", "300", "--markup",
                             "one <span highlight=\"#FFE066\">highlighted phrase that wraps over lines</span> end"])
        let highlighted = spans(json).first { $0["highlight"] != nil }!
        let boxes = highlighted["boxes"] as! [[String: Any]]
        #expect(Set(boxes.map { $0["line"] as! Int }).count >= 2)
        #expect((highlighted["highlight"] as! [String: Any])["contours"] as? Int == 1)
        // Nothing of the text outside the span is inside its shape's first box.
        #expect((boxes[0]["x"] as! Double) > 40)
    }

    @Test func aColourChangeDoesNotBreakTheLigatureOrMoveTheText() throws {
        let plain = lines(try dump(["--text", "office"]))[0]
        let coloured = lines(try dump(["--markup", "<span color=\"red\">of</span>fice"]))[0]
        #expect(plain["width"] as! Double == coloured["width"] as! Double)
        let bold = lines(try dump(["--markup", "o<b>ff</b>ice"]))[0]
        #expect(bold["width"] as! Double != plain["width"] as! Double)
    }

    /// `<tt>` asks Fontconfig for the generic monospace: a fixed-width face leads (the pinned
    /// Noto Sans Mono, bold inside `<b>`), even though it adds no coverage to the sans chain.
    @Test func ttTakesTheFixedWidthFace() throws {
        let json = try dump(["--markup", "a <tt>mono</tt> <tt><b>bold</b></tt> <i>b</i>"])
        let mono = spans(json).first { ($0["style"] as! [String: Any])["family"] as? String == "monospace" }
        #expect(mono != nil, "\(spans(json))")
        #expect(lines(json)[0]["fonts"] as? [String] == ["Noto Sans", "Noto Sans Mono"])
        // Fixed width: "iii" and "mmm" are as wide in <tt>, not in the sans face.
        let width = { (markup: String) in self.lines(try self.dump(["--markup", markup]))[0]["width"] as! Double }
        #expect(try width("<tt>iii</tt>") == (try width("<tt>mmm</tt>")))
        #expect(try width("iii") < (try width("mmm")))
    }

    @Test func markupErrorsAreOneLineWithLineAndColumn() throws {
        for (markup, message) in [
            ("<b>x</i>", "--markup: line 1, column 5: </i> closes <b> opened at line 1, column 1"),
            ("a\n<span sise='2'>x</span>", "--markup: line 2, column 7: unknown attribute sise in <span>"),
            ("<span size='huge'>x</span>", "--markup: line 1, column 7: size: 'huge' is not a size in 1024ths of a point or in pt"),
            ("<span color='#GG0000'>x</span>", "--markup: line 1, column 7: color: '#GG0000' is not a colour"),
        ] {
            let result = try CLI.run(["render", "--markup", markup, "--dump-layout", "-"])
            #expect(result.status == 3, "\(markup)")
            #expect(result.stderr.hasPrefix("hlrender: error: \(message)"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func spansInACardAreTheSameAsMarkup() throws {
        let spec = ##"{"size": "900x400", "blocks": [{"type": "text", "width": 800, "spans": [{"text": "Hi "}, {"text": "Ana", "weight": 700}, {"text": " costs "}, {"text": "9.99", "size": 80, "color": "#E4405F"}]}]}"##
        let markup = ##"{"size": "900x400", "blocks": [{"type": "text", "width": 800, "markup": "Hi <b>Ana</b> costs <span size='80pt' color='#E4405F'>9.99</span>"}]}"##
        var dumps: [String] = []
        for json in [spec, markup] {
            let result = try CLI.run(["card", "-", "--dump-layout", "-"], stdin: Array(json.utf8))
            #expect(result.status == 0, "\(result.stderr)")
            dumps.append(String(decoding: result.stdout, as: UTF8.self))
        }
        #expect(dumps[0] == dumps[1])
        #expect(dumps[0].contains("\"weight\": 200"))
    }

    @Test func variablesInMarkupAreEscaped() throws {
        let spec = #"{"size": "900x300", "blocks": [{"type": "text", "markup": "<b>{{name}}</b> wins"}]}"#
        let hostile = "</b><span color='red'>x & y"
        let result = try CLI.run(["card", "-", "--var", "name=\(hostile)", "--dump-layout", "-"], stdin: Array(spec.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        let block = (json["blocks"] as! [[String: Any]])[0]
        #expect((block["lines"] as! [[String: Any]]).map { $0["text"] as! String }.joined() == hostile + " wins")
        // One bold span over the whole value: nothing in it opened or closed a span.
        let spans = block["spans"] as! [[String: Any]]
        #expect(spans.count == 1 && spans[0]["start"] as? Int == 0 && spans[0]["end"] as? Int == hostile.utf8.count)
    }

    @Test func linksAreAnnotationsInAValidPDFAndTheTextStaysExtractable() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("link.pdf").path
        let result = try CLI.run(["render", "--width", "400", "--markup",
                                  "see <a href=\"https://example.com/a?b=1&amp;c='2'\">our long link text here</a> now", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try qpdfCheck(out))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(try pdfText(bytes).contains("our long link"))
        let raw = String(decoding: bytes, as: UTF8.self)
        #expect(raw.contains("/URI (https://example.com/a?b=1&c=%272%27)"), "\(raw.count)")
        // One annotation, as Cairo wrote it and as the catalog update rewrote it (printable,
        // described by its text).
        #expect(raw.components(separatedBy: "/Subtype /Link").count == 3)
        let described = "our long link text here".utf16.map { String(format: "%04X", $0) }.joined()
        #expect(raw.contains("/F 4 /Contents <FEFF\(described)> >>"), "\(raw.suffix(600))")
    }

    @Test func hiddenSpansAreNotInAPDF() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("hidden.pdf").path
        let result = try CLI.run(["render", "--width", "300", "--visible-lines", "1", "--markup",
                                  "shown words here\n<b>secretword</b> <span highlight='red'>hiddenphrase</span>", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let text = try pdfText(bytes)
        #expect(text.contains("shown") && !text.contains("secretword") && !text.contains("hiddenphrase"), "\(text)")
    }

    @Test func pagesAndStepsTakeMarkup() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let paged = dir.appendingPathComponent("paged.pdf").path
        let body = (1...80).map { "Paragraph \($0) with <b>bold</b> and <span highlight='#FFE066'>a highlighted phrase</span>." }
        var result = try CLI.run(["render", "--page", "a5", "--markup", body.joined(separator: "\n"), "-o", paged])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try pdfText([UInt8](try Data(contentsOf: URL(fileURLWithPath: paged))))
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Paragraph 80 with bold and a highlighted phrase."), "\(words.suffix(200))")
        result = try CLI.run(["steps", "--step", "<b>Sign</b> up", "--step", "Pay <span color='red'>now</span>", "--steps-markup",
                              "--dump-layout", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let steps = String(decoding: result.stdout, as: UTF8.self)
        #expect(steps.contains("\"text\": \"Sign up\"") && steps.contains("\"text\": \"Pay now\""))
        result = try CLI.run(["steps", "--step", "<b>Sign up", "--steps-markup", "--dump-layout", "-"])
        #expect(result.status == 3 && result.stderr.contains("steps[0]: line 1, column 1: <b> is never closed"), "\(result.stderr)")
    }
}
