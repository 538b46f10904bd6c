import Foundation
import HLRenderKit
import TestSupport
import Testing

/// The library as an app uses it: one import, an environment it owns, bytes and typed errors.
@Suite struct HLRendererTests {
    static let renderer = try! HLRenderer(environment: RenderEnvironment(fontDirectories: [Fixtures.fonts]))
    static let examples = Fixtures.repo.appendingPathComponent("examples")

    func example(_ name: String) throws -> String {
        try String(contentsOf: Self.examples.appendingPathComponent("\(name).json"), encoding: .utf8)
    }

    @Test func aCardMatchesTheCLIsGolden() async throws {
        var settings = RenderSettings(format: .png)
        settings.folder = Self.examples.path
        let card = try await Self.renderer.renderCard(json: try example("headline-gradient"), options: settings)
        let golden = try [UInt8](Data(contentsOf: Fixtures.repo.appendingPathComponent("Tests/CLITests/References/cards/headline-gradient.png")))
        let verdict = try await Self.renderer.compare(expected: golden, actual: card.bytes)
        #expect(verdict.passed, "\(verdict.summary)")
        #expect(card.layoutJSON.contains("\"blocks\""))
    }

    /// The pinned fonts come with the library (its resource bundle beside this test program): the
    /// same files as the repository's fonts/, and a card drawn with them matches the CLI's golden.
    @Test func thePinnedFontsNeedNoPath() async throws {
        let environment = try RenderEnvironment.pinned()
        let folder = try #require(environment.fontDirectories.last)
        #expect(!folder.hasPrefix(Fixtures.fonts), "\(folder) is the repository's own folder")
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.fonts).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == names)
        for name in names where name.hasSuffix(".ttf") || name.hasSuffix(".otf") {
            #expect(FileManager.default.contentsEqual(atPath: folder + "/" + name, andPath: Fixtures.fonts + "/" + name), "\(name)")
        }
        var settings = RenderSettings(format: .png)
        settings.folder = Self.examples.path
        let card = try await HLRenderer(environment: environment).renderCard(json: try example("headline-gradient"), options: settings)
        let golden = try [UInt8](Data(contentsOf: Fixtures.repo.appendingPathComponent("Tests/CLITests/References/cards/headline-gradient.png")))
        #expect(try await Self.renderer.compare(expected: golden, actual: card.bytes).passed)
        #expect(try RenderEnvironment.pinned(moreFontDirectories: ["/srv/brand"]).fontDirectories == ["/srv/brand", folder])
    }

    /// An animated card through the library: an APNG (acTL chunk) whose layout report gives the
    /// effects' timing, and an animated WebP (ANIM chunk).
    @Test func anAnimatedCardIsAnAnimation() async throws {
        let spec = #"{"size": "300x120", "padding": 10, "fps": 10, "blocks": [{"type": "text", "text": "Moving", "size": 40, "animation": "lines-in"}]}"#
        let apng = try await Self.renderer.animateCard(json: spec, as: .apng)
        #expect(String(decoding: apng.bytes.prefix(64), as: UTF8.self).contains("acTL"))
        let layout = try JSONSerialization.jsonObject(with: Data(apng.layoutJSON.utf8)) as? [String: Any]
        let effects = ((layout?["blocks"] as? [[String: Any]])?.first?["animation"] as? [[String: Any]]) ?? []
        #expect(effects.first?["effect"] as? String == "lines-in", "\(apng.layoutJSON)")
        let webp = try await Self.renderer.animateCard(json: spec)
        #expect(String(decoding: webp.bytes.prefix(64), as: UTF8.self).contains("ANIM"))
        await #expect(throws: HLRenderError.self) {
            try await Self.renderer.animateCard(json: #"{"blocks": [{"type": "text", "text": "a", "animation": "spin"}]}"#)
        }
    }

    @Test func aTypedSpecRendersAsItsJSON() async throws {
        let typed: CardValue = ["size": "300x120", "padding": 10, "background": "#1E3C72",
                                "blocks": [["type": "text", "text": "Typed", "size": 40, "highlight": "white", "color": "black"]]]
        let json = ##"{"size": "300x120", "padding": 10, "background": "#1E3C72", "blocks": [{"type": "text", "text": "Typed", "size": 40, "highlight": "white", "color": "black"}]}"##
        let fromValue = try await Self.renderer.renderCard(typed).bytes
        let fromJSON = try await Self.renderer.renderCard(json: json).bytes
        #expect(fromValue == fromJSON)
        do {
            _ = try await Self.renderer.renderCard(["size": "300x120", "blocks": [["type": "text", "text": "a", "size": -1]]])
            Issue.record("a negative size rendered")
        } catch {
            #expect(error.path == "blocks[0].size", "\(error)")
        }
    }

    @Test func everyFormatHasItsSignature() async throws {
        let spec = #"{"size": "120x60", "padding": 0, "blocks": [{"type": "text", "text": "Hi", "highlight": "yellow"}]}"#
        // AVIF's box type follows the box's 4-byte size.
        let signatures: [ImageFormat: (offset: Int, bytes: [UInt8])] = [
            .png: (0, [0x89, 0x50, 0x4E, 0x47]), .jpeg: (0, [0xFF, 0xD8, 0xFF]), .webp: (0, Array("RIFF".utf8)),
            .avif: (4, Array("ftypavif".utf8)), .pdf: (0, Array("%PDF".utf8)), .svg: (0, Array("<?xml".utf8)),
        ]
        for format in ImageFormat.allCases {
            let bytes = try await Self.renderer.renderCard(json: spec, options: RenderSettings(format: format)).bytes
            let signature = try #require(signatures[format], "no signature for \(format)")
            #expect(Array(bytes.dropFirst(signature.offset).prefix(signature.bytes.count)) == signature.bytes, "\(format)")
        }
    }

    @Test func errorsCarryTheirJSONPath() async throws {
        let bad = #"{"size": "100x100", "padding": 0, "blocks": [{"type": "text", "markup": "<span weight='x'>a</span>"}, {"type": "text", "text": "a", "sise": 3}]}"#
        do {
            _ = try await Self.renderer.renderCard(json: bad)
            Issue.record("a bad spec rendered")
        } catch {
            #expect(error.kind == .input)
            #expect(error.path.hasPrefix("blocks[0].markup") || error.path == "blocks[1].sise", "\(error)")
        }
        do {
            _ = try await Self.renderer.renderCard(json: #"{"size": "100x100", "padding": 0, "blocks": [{"type": "text", "text": "{{who}}"}]}"#)
            Issue.record("a missing variable rendered")
        } catch {
            #expect(error.missingVariable == "who", "\(error)")
        }
        var settings = RenderSettings()
        settings.variables = ["who": "<b>you</b>"]
        let layout = try await Self.renderer.layoutCard(json: #"{"size": "400x100", "padding": 0, "blocks": [{"type": "text", "text": "{{who}}", "size": 20}]}"#,
                                                      options: settings)
        #expect(layout.contains("<b>you</b>"), "\(layout)")
    }

    @Test func linkSchemesAreTheEnvironmentsToWiden() async throws {
        let card = #"{"size": "300x100", "padding": 0, "blocks": [{"type": "text", "markup": "<a href='tel:1'>call</a>", "size": 20}]}"#
        var settings = RenderSettings()
        settings.format = .pdf
        do {
            _ = try await Self.renderer.renderCard(json: card, options: settings)
            Issue.record("a tel: link rendered without the environment allowing it")
        } catch {
            #expect(error.kind == .input && error.path.hasPrefix("blocks[0].markup") && error.message.contains("'tel:'"), "\(error)")
        }
        var environment = RenderEnvironment(fontDirectories: [Fixtures.fonts])
        environment.extraLinkSchemes = ["tel"]
        let pdf = try await HLRenderer(environment: environment).renderCard(json: card, options: settings).bytes
        #expect(String(decoding: pdf, as: UTF8.self).contains("/URI (tel:1)"))
        environment.extraLinkSchemes = ["javascript"]
        #expect(throws: HLRenderError.self) { try HLRenderer(environment: environment) }
    }

    @Test func aCancelledTaskStopsItsRender() async throws {
        // Enough lines that the render is still going when the task is cancelled.
        let text = String(repeating: "word ", count: 200_000)
        let spec = #"{"size": "400x400", "blocks": [{"type": "text", "text": "\#(text)", "size": 8, "highlight": "yellow"}]}"#
        let task = Task { try await Self.renderer.renderCard(json: spec) }
        // Cancelled from a thread of its own: a sleep in this task could resume only after the
        // render, when the whole suite keeps the cooperative threads busy.
        Thread.detachNewThread {
            usleep(20_000)
            task.cancel()
        }
        do {
            _ = try await task.value
            Issue.record("the cancelled render finished")
        } catch let error as HLRenderError {
            #expect(error.kind == .cancelled, "\(error)")
        }
    }

    @Test func twoEnvironmentsShareNothing() async throws {
        // A folder holding only Noto Sans: the mono family is unknown there, while the full
        // folder's renderer in the same process still has it.
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Fixtures.fonts + "/NotoSans-Regular.ttf", toPath: folder.appendingPathComponent("NotoSans-Regular.ttf").path)
        let small = try HLRenderer(environment: RenderEnvironment(fontDirectories: [folder.path]))
        let spec = #"{"size": "200x80", "padding": 0, "blocks": [{"type": "text", "text": "Mono", "font": "Noto Sans Mono"}]}"#
        _ = try await Self.renderer.renderCard(json: spec)
        do {
            _ = try await small.renderCard(json: spec)
            Issue.record("the small environment found a font it does not have")
        } catch {
            #expect(error.message.contains("Noto Sans Mono"), "\(error)")
        }
    }

    @Test func hyphenationComesFromTheEnvironment() async throws {
        let spec = #"{"size": "160x400", "blocks": [{"type": "text", "text": "internationalization", "size": 30, "hyphenate": true, "lang": "en-US", "width": 150}]}"#
        let none = try HLRenderer(environment: RenderEnvironment(fontDirectories: [Fixtures.fonts], hyphenationDirectories: []))
        let withDictionaries = try await Self.renderer.layoutCard(json: spec)
        let without = try await none.layoutCard(json: spec)
        // With the dictionary the word breaks at a syllable (inter-na-tion-al-iza-tion); without
        // it, where the line is full.
        #expect(withDictionaries.contains("\"hyphen\": true"), "\(withDictionaries)")
        #expect(withDictionaries != without, "\(without)")
    }

    @Test func pagesFlowLongText() async throws {
        let text = (1...400).map { "Paragraph \($0) of a long document." }.joined(separator: "\n")
        let pdf = try await Self.renderer.renderPages(text: text, options: #"{"page": "a5", "size": 14, "page-numbers": true}"#, title: "Long")
        #expect(Array(pdf.prefix(4)) == Array("%PDF".utf8))
        let file = try CLI.scratchFolder().appendingPathComponent("long.pdf")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try Data(pdf).write(to: file)
        let info = try runTool("/usr/bin/pdfinfo", [file.path]).output
        let pages = info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(pages > 5, "\(info)")
        #expect(info.contains("Title:") && info.contains("Long"), "\(info)")
        do {
            _ = try await Self.renderer.renderPages(text: "x", options: #"{"orphans": 0}"#)
            Issue.record("orphans 0 was taken")
        } catch {
            #expect(error.path == "orphans", "\(error)")
        }
    }

    /// Markdown pages through the library: the same structure as `render --markdown`, read
    /// back by pikepdf; a picture comes through the environment's `readFile`.
    @Test func markdownPagesAreTagged() async throws {
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let logo = try CLI.run(["card", "-", "-o", folder.appendingPathComponent("logo.png").path],
                               stdin: Array(##"{"size": "60x30", "padding": 0, "background": "#C62828", "blocks": []}"##.utf8))
        #expect(logo.status == 0, "\(logo.stderr)")
        let markdown = "# Title\n\n- one\n- two\n\n![A red logo](\(folder.appendingPathComponent("logo.png").path))\n"
        let pdf = try await Self.renderer.renderPages(text: markdown, format: .markdown, options: #"{"page": "a5"}"#, title: "Doc",
                                                      standards: [.ua1])
        let file = folder.appendingPathComponent("md.pdf")
        try Data(pdf).write(to: file)
        let script = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/structure_tree.py").path
        let tree = try runTool("/usr/bin/python3", [script, file.path]).output.split(separator: "\n").map(String.init)
        #expect(tree == ["Document", "  H1", "  L", "    LI", "      Lbl", "      LBody", "        P", "    LI", "      Lbl", "      LBody",
                         "        P", "  Figure alt=A red logo", "outline: Title"], "\(tree)")
    }

    /// Tags and standards are settings of a render; a card's own `pdf` key joins them (the
    /// caller's title wins), and a standard's unmet need is an input error naming it.
    @Test func pdfStandardsAreSettings() async throws {
        let text = String(decoding: try await Self.renderer.renderPages(text: "# Title\nBody.", title: "Doc", standards: [.ua1, .a2b]), as: UTF8.self)
        #expect(text.contains("<pdfuaid:part>1</pdfuaid:part>") && text.contains("<pdfaid:part>2</pdfaid:part>") && text.contains("/OutputIntents"))
        do {
            _ = try await Self.renderer.renderPages(text: "x", standards: [.ua1])
            Issue.record("PDF/UA-1 without a title was taken")
        } catch {
            #expect(error.path == "pdf-standard" && "\(error)".contains("title"), "\(error)")
        }
        var settings = RenderSettings(format: .pdf)
        settings.pdfStandards = [.a2b]
        settings.title = "From the caller"
        let card = ##"{"size": "400x200", "pdf": {"title": "From the card", "pdf-standard": "ua-1"}, "blocks": [{"type": "text", "text": "Hi"}]}"##
        let both = String(decoding: try await Self.renderer.renderCard(json: card, options: settings).bytes, as: UTF8.self)
        #expect(both.contains("<pdfuaid:part>1</pdfuaid:part>") && both.contains("<pdfaid:part>2</pdfaid:part>") && both.contains("From the caller")
                && !both.contains("From the card"))
        settings.title = nil
        settings.tagged = false
        do {
            _ = try await Self.renderer.renderCard(json: card, options: settings)
            Issue.record("PDF/UA-1 without tags was taken")
        } catch {
            #expect(error.path == "pdf.pdf-standard", "\(error)")
        }
        settings.pdfStandards = []
        let untagged = String(decoding: try await Self.renderer.renderCard(json: ##"{"size": "400x200", "blocks": [{"type": "text", "text": "Hi"}]}"##,
                                                                            options: settings).bytes, as: UTF8.self)
        #expect(!untagged.contains("/StructTreeRoot") && !untagged.contains("/Lang"))
    }

    @Test func whyAndSSIMComeWithTheVerdict() async throws {
        let blue = try await Self.renderer.renderCard(json: ##"{"size": "60x40", "background": "#1E3C72", "blocks": []}"##).bytes
        let red = try await Self.renderer.renderCard(json: ##"{"size": "60x40", "background": "#C62828", "blocks": []}"##).bytes
        let verdict = try await Self.renderer.compare(expected: blue, actual: red)
        #expect(!verdict.passed && verdict.why == "colour" && verdict.summary.hasSuffix("colour only"), "\(verdict.summary)")
        var options = ComparisonOptions()
        options.metric = .ssim
        options.minimumSSIM = 0.5
        let scored = try await Self.renderer.compare(expected: blue, actual: blue, options: options)
        #expect(scored.passed && (scored.ssim == nil || scored.ssim == 1))
        let other = try await Self.renderer.compare(expected: blue, actual: red, options: options)
        #expect(other.ssim != nil && other.ssim! < 1)
    }

    @Test func imagesOfDifferentSizesFail() async throws {
        let small = try await Self.renderer.renderCard(json: #"{"size": "20x20", "blocks": []}"#).bytes
        let large = try await Self.renderer.renderCard(json: #"{"size": "30x20", "blocks": []}"#).bytes
        let same = try await Self.renderer.compare(expected: small, actual: small)
        #expect(same.passed && same.summary == "identical")
        let verdict = try await Self.renderer.compare(expected: small, actual: large)
        #expect(!verdict.passed && verdict.sizesDiffer, "\(verdict.summary)")
        var options = ComparisonOptions()
        options.threshold = 2
        do {
            _ = try await Self.renderer.compare(expected: small, actual: small, options: options)
            Issue.record("threshold 2 was taken")
        } catch {
            #expect(error.path == "threshold", "\(error)")
        }
    }

    @Test func aGoldenIsRecordedOnceAndLeftAloneWhileItPasses() async throws {
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = folder.appendingPathComponent("card.png").path
        let card = try await Self.renderer.renderCard(["size": "80x40", "padding": 0, "blocks": [["type": "text", "text": "A", "size": 20]]]).bytes
        #expect(try await Self.renderer.checkGolden(card, goldenPath: golden) == .missing)
        #expect(!FileManager.default.fileExists(atPath: golden))
        #expect(try await Self.renderer.checkGolden(card, goldenPath: golden, update: true) == .recorded)
        let written = try FileManager.default.attributesOfItem(atPath: golden)[.modificationDate] as! Date
        guard case .passed = try await Self.renderer.checkGolden(card, goldenPath: golden, update: true) else {
            Issue.record("the recorded golden does not pass")
            return
        }
        #expect(try FileManager.default.attributesOfItem(atPath: golden)[.modificationDate] as! Date == written)
        let other = try await Self.renderer.renderCard(["size": "80x40", "padding": 0, "blocks": [["type": "text", "text": "B", "size": 20]]]).bytes
        guard case let .failed(summary) = try await Self.renderer.checkGolden(other, goldenPath: golden) else {
            Issue.record("a changed card passed")
            return
        }
        #expect(summary.differentPixels > 0 && !summary.sizesDiffer, "\(summary.text)")
    }

    /// `checkGolden` reads and writes through the environment (a caller's own store here, no
    /// file) and checks as a golden suite does: an animation frame by frame, and an animated
    /// card whose golden is its still image fails, so `update` records the animation.
    @Test func aGoldenCheckGoesThroughTheWorldAndKnowsAnimations() async throws {
        final class Store: @unchecked Sendable {
            let lock = NSLock()
            var files: [String: [UInt8]] = [:]
        }
        let store = Store()
        var environment = RenderEnvironment(fontDirectories: [Fixtures.fonts])
        environment.readFile = { path in
            try store.lock.withLock {
                guard let bytes = store.files[path] else { throw RenderEnvironment.FileNotFound(path: path) }
                return bytes
            }
        }
        environment.writeFile = { path, bytes in store.lock.withLock { store.files[path] = bytes } }
        let renderer = try HLRenderer(environment: environment)
        let spec = #"{"size": "300x120", "padding": 10, "fps": 10, "blocks": [{"type": "text", "text": "Moving", "size": 40, "animation": "lines-in"}]}"#
        let still = try await renderer.renderCard(json: spec).bytes
        #expect(try await renderer.checkGolden(still, goldenPath: "goldens/story.png", update: true) == .recorded)
        #expect(store.lock.withLock { store.files["goldens/story.png"] } == still)
        let moving = try await renderer.animateCard(json: spec, as: .apng).bytes
        guard case let .failed(summary) = try await renderer.checkGolden(moving, goldenPath: "goldens/story.png") else {
            Issue.record("an animation passed against its still golden")
            return
        }
        #expect(summary.text == "the card is an animation now, its golden a still image", "\(summary.text)")
        #expect(try await renderer.checkGolden(moving, goldenPath: "goldens/story.png", update: true) == .recorded)
        guard case let .passed(same) = try await renderer.checkGolden(moving, goldenPath: "goldens/story.png") else {
            Issue.record("the recorded animation does not pass")
            return
        }
        #expect(same.text == "identical")
    }

    /// `compare` takes two animations as a golden suite does: frame by frame, a changed frame
    /// failing with its difference, an animation against a still image failing by kind.
    @Test func compareTakesAnimationsFrameByFrame() async throws {
        let spec = #"{"size": "300x120", "padding": 10, "fps": 10, "blocks": [{"type": "text", "text": "Moving", "size": 40, "animation": "lines-in"}]}"#
        let moving = try await Self.renderer.animateCard(json: spec, as: .apng).bytes
        let changed = try await Self.renderer.animateCard(json: spec.replacingOccurrences(of: "Moving", with: "Mowing"), as: .apng).bytes
        let still = try await Self.renderer.renderCard(json: spec).bytes
        let same = try await Self.renderer.compare(expected: moving, actual: moving)
        #expect(same.passed && same.summary == "identical", "\(same.summary)")
        let differ = try await Self.renderer.compare(expected: moving, actual: changed)
        #expect(!differ.passed && differ.differentPixels > 0 && differ.summary.contains("frames differ"), "\(differ.summary)")
        #expect(differ.differencePNG.map { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) } == true)
        let kind = try await Self.renderer.compare(expected: still, actual: moving)
        #expect(!kind.passed && kind.summary.contains("an animation now"), "\(kind.summary)")
    }

    /// A picture served by the caller's own store is kept between renders under the version
    /// the caller's `fileIdentity` gives (read once while it holds), read again when the version
    /// changes; a font value the caller's `isFile` calls a file is taken as a file, not a name.
    @Test func filesAreTheWorldsToTellApart() async throws {
        final class Store: @unchecked Sendable {
            let lock = NSLock()
            var version = 1, reads = 0
            var bytes: [UInt8] = []
        }
        let store = Store()
        let red = try await Self.renderer.renderCard(["size": "20x20", "padding": 0, "background": "#FF0000", "blocks": []]).bytes
        let blue = try await Self.renderer.renderCard(["size": "20x20", "padding": 0, "background": "#0000FF", "blocks": []]).bytes
        store.bytes = red
        var environment = RenderEnvironment(fontDirectories: [Fixtures.fonts])
        environment.readFile = { _ in store.lock.withLock { store.reads += 1; return store.bytes } }
        environment.fileIdentity = { _ in store.lock.withLock { "v\(store.version)" } }
        environment.isFile = { $0.hasSuffix(".ttf") }
        let renderer = try HLRenderer(environment: environment)
        let card: CardValue = ["size": "40x40", "padding": 0, "blocks": [["type": "image", "src": "/store/logo.png", "alt": "logo"]]]
        let first = try await renderer.renderCard(card).bytes
        let second = try await renderer.renderCard(card).bytes
        #expect(first == second && store.lock.withLock { store.reads } == 1, "a picture of an unchanged version is decoded once")
        store.lock.withLock { (store.version, store.bytes) = (2, blue) }
        let third = try await renderer.renderCard(card).bytes
        #expect(third != first && store.lock.withLock { store.reads } == 2, "a new version is read again")
        do {
            _ = try await renderer.renderCard(["size": "200x80", "padding": 0, "blocks": [["type": "text", "text": "A", "font": "/store/brand.ttf"]]])
            Issue.record("a font file nobody can open rendered")
        } catch {
            #expect(error.message.contains("font file '/store/brand.ttf'"), "\(error)")
        }
    }

    @Test func fontFilesPassTheEnvironmentsCheckAndQualityItsRow() async throws {
        var environment = RenderEnvironment(fontDirectories: [Fixtures.fonts])
        environment.checkFontFile = { path in throw HLRenderError(.input, "font files are not allowed here: \(path)") }
        let confined = try HLRenderer(environment: environment)
        let font = Fixtures.fonts + "/NotoSans-Regular.ttf"
        let card: CardValue = ["size": "200x80", "padding": 0, "blocks": [["type": "text", "text": "A", "font": .string(font)]]]
        _ = try await Self.renderer.renderCard(card)
        do {
            _ = try await confined.renderCard(card)
            Issue.record("a font file passed a check that refuses every one")
        } catch {
            #expect(error.message.contains("not allowed"), "\(error)")
        }
        do {
            _ = try await confined.renderPages(text: "A", options: #"{"font": "\#(font)"}"#)
            Issue.record("a page font file passed a check that refuses every one")
        } catch {
            #expect(error.message.contains("not allowed"), "\(error)")
        }
        var settings = RenderSettings(format: .jpeg)
        settings.quality = 0
        do {
            _ = try await Self.renderer.renderCard(card, options: settings)
            Issue.record("quality 0 was taken")
        } catch {
            #expect(error.path == "quality", "\(error)")
        }
    }
}

/// Fonts given as bytes (issue 54): a renderer made from bytes alone draws, and bytes that are
/// no font are the caller's input error, named.
@Suite struct FontBytesTests {
    @Test func bytesThatAreNoFontAreAnInputError() throws {
        var environment = RenderEnvironment(fontDirectories: [])
        environment.fonts = [FontBytes(name: "Brand.ttf", bytes: Array("not a font at all".utf8))]
        do {
            _ = try HLRenderer(environment: environment)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .input, "\(error)")
            #expect("\(error)".contains("Brand.ttf"), "\(error)")
        }
    }
}
