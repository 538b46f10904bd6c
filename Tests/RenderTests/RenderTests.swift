import Codecs
import Compare
import Foundation
import Render
import TestSupport
import Testing
import Typeset

func render(_ layout: Layout, format: OutputFormat = .png, configure: (inout TextCanvas) -> Void = { _ in }) throws -> [UInt8] {
    var options = TextCanvas()
    options.format = format
    configure(&options)
    return try options.render(layout)
}


func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
}

@Suite struct GoldenRenderTests {
    @Test(arguments: [("latin", "en"), ("cjk", "ja"), ("arabic", "ar"), ("devanagari", "hi"), ("mixed", "mixed")])
    func corpusGolden(name: String, corpus: String) throws {
        let layout = try Fixtures.layout(try Fixtures.corpusText(corpus), size: 40, width: 640)
        try Golden.check(try render(layout), area: "render", name: name)
    }

    @Test func emojiGolden() throws {
        let layout = try Fixtures.layout("Flags 🇯🇵🇧🇷, family 👨‍👩‍👧, skin 👍🏽, keycap 1️⃣ ☕", size: 40, width: 520)
        try Golden.check(try render(layout), area: "render", name: "emoji")
    }

    @Test func centredOnFixedCanvasWithColours() throws {
        let layout = try Fixtures.layout("Centred\non a canvas", size: 40, align: .center)
        let png = try render(layout) {
            $0.canvas = (400, 300)
            $0.background = Color(parsing: "#203040")!
            $0.textColor = Color(parsing: "gold")!
        }
        try Golden.check(png, area: "render", name: "canvas")
    }
}

@Suite struct RenderOutputTests {
    @Test(arguments: ["en", "ru", "ja", "zh"])
    func pdfTextIsTheInput(corpus: String) throws {
        let text = try Fixtures.corpusText(corpus)
        let pdf = try render(try Fixtures.layout(text, width: 600), format: .pdf)
        #expect(pdf.starts(with: Array("%PDF".utf8)))
        let extracted = try pdfText(pdf)
        // Lines wrap differently in the PDF than in the file: compare without whitespace.
        let strip = { (s: String) in s.filter { !$0.isWhitespace } }
        #expect(strip(extracted) == strip(text))
    }

    @Test func colourEmojiStayExtractableInPDF() throws {
        // Cairo 1.16 embeds colour glyphs as images; an invisible text layer keeps the text.
        let text = "Emoji 👩‍💻🎉 and 🇯🇵 here"
        let pdf = try render(try Fixtures.layout(text), format: .pdf)
        let strip = { (s: String) in s.filter { !$0.isWhitespace } }
        #expect(strip(try pdfText(pdf)) == strip(text))
    }

    @Test func pdfFontsAreEmbeddedSubsets() throws {
        let pdf = try render(try Fixtures.layout(try Fixtures.corpusText("mixed"), width: 600), format: .pdf)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hlrender-\(UUID().uuidString).pdf")
        try Data(pdf).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(try qpdfCheck(path.path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdffonts")
        process.arguments = [path.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // name type encoding emb sub uni object ID: every font embedded, as a subset (XXXXXX+Name).
        let rows = output.split(separator: "\n").dropFirst(2)
        #expect(rows.count >= 3, "\(output)")
        for row in rows {
            let columns = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(columns[0].contains("+"), "subset prefix: \(row)")
            let flags = columns.suffix(5).prefix(3)  // emb sub uni
            #expect(Array(flags) == ["yes", "yes", "yes"], "\(row)")
        }
    }

    @Test func nonCharactersDoNotBreakRendering() throws {
        // Valid UTF-8 that Cairo refuses as text: U+FFFF, U+10FFFF, U+FDD0 (and a NUL).
        let text = String(String.UnicodeScalarView(
            [0x61, 0xFFFF, 0x62, 0x20, 0x10FFFF, 0x20, 0x63, 0xFDD0, 0x64, 0x0, 0x65].map { Unicode.Scalar($0)! }))
        let layout = try Fixtures.layout(text)
        #expect(try render(layout).count > 0)
        let extracted = try pdfText(try render(layout, format: .pdf))
        #expect(extracted.contains("a\u{FFFD}b"), "\(extracted)")
        #expect(extracted.contains("c\u{FFFD}d"))
    }

    @Test func ligatureStaysRealTextInPDF() throws {
        let pdf = try render(try Fixtures.layout("office affine"), format: .pdf)
        #expect(words(try pdfText(pdf)) == ["office", "affine"])
    }

    @Test func pngIsDeterministic() throws {
        let layout = try Fixtures.layout(try Fixtures.corpusText("mixed"), width: 500)
        let first = try render(layout), second = try render(try Fixtures.layout(try Fixtures.corpusText("mixed"), width: 500))
        #expect(first == second)
    }

    @Test func scaleKeepsTheLayout() throws {
        let layout = try Fixtures.layout("Scale me", size: 30)
        let one = try PNGCodec.decode(try render(layout))
        let three = try PNGCodec.decode(try render(layout) { $0.scale = 3 })
        #expect(abs(three.width - one.width * 3) <= 3)
        #expect(abs(three.height - one.height * 3) <= 3)
        // The ink lands in the same place: compare the darkest column at 1x and 3x.
        let scaled: [Int] = inkBounds(one).map { $0 * 3 }
        let big: [Int] = inkBounds(three)
        for (a, b) in zip(scaled, big) { #expect(abs(a - b) <= 4, "ink \(scaled) at 1x*3 vs \(big) at 3x") }
    }

    @Test func canvasOverTheLimitIsRefused() throws {
        let layout = try Fixtures.layout("x")
        #expect(throws: RenderError.canvasTooLarge(width: 20000, height: 20000, limit: 100_000_000)) {
            try render(layout) { $0.canvas = (20000, 20000) }
        }
        #expect(throws: RenderError.canvasTooLarge(width: 2000, height: 2000, limit: 1_000_000)) {
            try render(layout) { $0.canvas = (1000, 1000); $0.scale = 2; $0.maxPixels = 1_000_000 }
        }
    }

    @Test func transparentBackgroundStaysTransparent() throws {
        let image = try PNGCodec.decode(try render(try Fixtures.layout("T")) { $0.background = .transparent })
        #expect(image[0, 0].a == 0)
        #expect(image.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 255 })
    }

    /// Leftmost, topmost, rightmost and bottommost dark pixel.
    private func inkBounds(_ image: RGBAImage) -> [Int] {
        var minX = Int.max, minY = Int.max, maxX = 0, maxY = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].r < 128 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return [minX, minY, maxX, maxY]
    }
}

@Suite struct ColorTests {
    @Test func parsesEveryForm() {
        #expect(Color(parsing: "#fff") == .white)
        #expect(Color(parsing: "#000000") == .black)
        #expect(Color(parsing: "#FF000080")?.alpha == 128.0 / 255)
        #expect(Color(parsing: "#f008")?.alpha == 8.0 / 15)
        #expect(Color(parsing: "rebeccapurple")?.description == "#663399FF")
        #expect(Color(parsing: "transparent")?.alpha == 0)
        #expect(Color(parsing: "#12345") == nil)
        #expect(Color(parsing: "notacolour") == nil)
    }

    @Test func contrast() {
        #expect(abs(Color.white.contrast(with: .black) - 21) < 1e-9)
        #expect(Color(parsing: "yellow")!.contrast(with: .black) > Color(parsing: "yellow")!.contrast(with: .white))
    }
}

/// A variable font at two weights: different advances (shaping) and different pixels, in PNG
/// and in PDF (whose outlines are the instance's, not the default's).
@Suite struct VariableFontTests {
    func layout(weight: Int) throws -> Layout {
        let spec = FontSpec(family: nil, file: Fixtures.fonts + "/InterVariable-Latin-subset.ttf")
        var style = TypesetStyle(size: 60)
        style.variations = try FontVariations("wght=\(weight)")
        return try Typesetter(library: Fixtures.library, font: spec).layout("Variable weight", style: style)
    }

    @Test func weightsChangeAdvancesAndPixels() throws {
        let light = try layout(weight: 300), heavy = try layout(weight: 800)
        #expect(heavy.lines[0].width > light.lines[0].width + 10)
        var options = TextCanvas()
        options.canvas = (600, 120)
        let a = try PNGCodec.decode(try options.render(light))
        let b = try PNGCodec.decode(try options.render(heavy))
        let ink = { (image: RGBAImage) in stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count }
        #expect(Double(ink(b)) > Double(ink(a)) * 1.5, "the heavy weight has more ink")
    }

    @Test func pdfOutlinesAreTheInstance() throws {
        var options = TextCanvas()
        options.canvas = (600, 120)
        options.format = .pdf
        let pngOf = { (pdf: [UInt8]) throws -> RGBAImage in
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hlrender-vf-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            try Data(pdf).write(to: dir.appendingPathComponent("v.pdf"))
            #expect(try qpdfCheck(dir.appendingPathComponent("v.pdf").path))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
            process.arguments = ["-png", "-r", "72", "-singlefile", dir.appendingPathComponent("v.pdf").path, dir.appendingPathComponent("v").path]
            try process.run()
            process.waitUntilExit()
            return try PNGCodec.decode([UInt8](try Data(contentsOf: dir.appendingPathComponent("v.png"))))
        }
        let light = try pngOf(try options.render(try layout(weight: 300)))
        let heavy = try pngOf(try options.render(try layout(weight: 800)))
        let ink = { (image: RGBAImage) in stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count }
        #expect(Double(ink(heavy)) > Double(ink(light)) * 1.5, "the PDF's outlines follow the weight")
        let text = try pdfText(try options.render(try layout(weight: 800)))
        #expect(text.filter { !$0.isWhitespace } == "Variableweight", "still extractable: \(text)")
    }
}

@Suite struct PublicEncoderTests {
    /// Any straight-RGBA image encodes through the renderer's encoders and decodes back.
    @Test func rgbaImagesRoundTripThroughPNG() throws {
        var image = RGBAImage(width: 7, height: 5, fill: (30, 144, 255, 255))
        image[2, 3] = (255, 0, 0, 255)
        image[6, 0] = (0, 0, 0, 0)
        let decoded = try PNGCodec.decode(try ImageEncoder.encode(image, as: .png))
        #expect(decoded == image)
        let jpeg = try ImageEncoder.encode(image, as: .jpeg)
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
        #expect(throws: RenderError.self) { try ImageEncoder.encode(RGBAImage(width: 0, height: 0, pixels: []), as: .webp) }
    }
}

/// JPEG output: decodes back to the picture, its Huffman tables are made for the image (not
/// the standard ones), and chroma is subsampled below quality 95 only.
@Suite struct JPEGEncoderTests {
    /// The JPEG segments with marker `marker`, their payloads.
    private func segments(_ jpeg: [UInt8], _ marker: UInt8) -> [[UInt8]] {
        var out: [[UInt8]] = [], i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xDA {
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] == marker { out.append(Array(jpeg[(i + 4)..<(i + 2 + length)])) }
            i += 2 + length
        }
        return out
    }

    private func picture() -> RGBAImage {
        var image = RGBAImage(width: 96, height: 64, fill: (233, 68, 106, 255))
        for y in 20..<44 { for x in 10..<86 { image[x, y] = (255, 255, 255, 255) } }
        return image
    }

    @Test func huffmanTablesAreMadeForTheImage() throws {
        let jpeg = try ImageEncoder.encode(picture(), as: .jpeg)
        let decoded = try RasterImage(decoding: jpeg)
        #expect(decoded.width == 96 && decoded.height == 64)
        #expect(abs(Int(decoded.pixels[(32 * 96 + 48) * 4]) - 255) < 8 && abs(Int(decoded.pixels[0]) - 233) < 8)
        // Each table: class/id, 16 code-length counts, then the symbols. The standard
        // luminance DC table lists 12 symbols; one made for a flat two-colour picture far fewer.
        var tables: [UInt8: Int] = [:]
        for segment in segments(jpeg, 0xC4) {
            var k = 0
            while k + 17 <= segment.count {
                let count = segment[(k + 1)...(k + 16)].reduce(0) { $0 + Int($1) }
                tables[segment[k]] = count
                k += 17 + count
            }
        }
        #expect(tables[0x00] != nil && tables[0x00]! < 12, "luminance DC symbols: \(tables)")
        #expect(tables[0x10] != nil && tables[0x10]! < 162, "luminance AC symbols: \(tables)")
    }

    @Test func chromaIsSubsampledBelowQuality95Only() throws {
        func lumaSampling(_ quality: Int) throws -> UInt8 {
            var options = EncodeOptions()
            options.quality = try Quality(quality)
            let frame = segments(try ImageEncoder.encode(picture(), as: .jpeg, options: options), 0xC0)[0]
            return frame[7]  // precision, height, width, components, then component 1: id, sampling
        }
        #expect(try lumaSampling(90) == 0x22)
        #expect(try lumaSampling(95) == 0x11)
    }

    /// A gray image (black text on white, say) is one component: no chroma to transform or
    /// carry, the same gray back. A single coloured pixel keeps three.
    @Test func grayImagesAreOneComponent() throws {
        var gray = RGBAImage(width: 96, height: 64, fill: (255, 255, 255, 255))
        for y in 20..<44 { for x in 10..<86 { gray[x, y] = (40, 40, 40, 255) } }
        let jpeg = try ImageEncoder.encode(gray, as: .jpeg)
        #expect(segments(jpeg, 0xC0)[0][5] == 1)  // precision, height, width, then the component count
        let decoded = try RasterImage(decoding: jpeg)
        #expect(abs(Int(decoded.pixels[(32 * 96 + 48) * 4]) - 40) < 8 && abs(Int(decoded.pixels[0]) - 255) < 8)
        var tinted = gray
        tinted[0, 0] = (255, 250, 255, 255)
        #expect(segments(try ImageEncoder.encode(tinted, as: .jpeg), 0xC0)[0][5] == 3)
    }
}
