import Foundation
import Glibc
import Goldens
import Render
import TestSupport
import Testing

/// Issue 48's numeric findings and escapers, each through the front ends that carry it. Each
/// of these failed on f727c2f: a PDF's MediaBox or an SVG's size ended the process by a signal,
/// and a mark after `"` or `|` slipped past the escapers.

@Suite struct HostileGeometryTests {
    let dir: URL
    init() throws { dir = try CLI.scratchFolder() }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Finding 1: `Int((width * dpi / 72).rounded(.up))` trapped before the pixel limit.
    @Test func aPDFsMediaBoxOfAnySizeIsOneLineNotASignal() throws {
        let huge = String(repeating: "9", count: 400)
        try Data(HostileFiles.onePagePDF(mediaBox: "0 0 612 792")).write(to: URL(fileURLWithPath: path("ok.pdf")))
        for (name, box) in [("e26", "0 0 1e26 200"), ("big", "0 0 100000000000000000000000000 200"), ("neg", "0 0 -500 -700"),
                            ("digits", "0 0 \(huge) \(huge)"), ("flat", "0 0 612 0")] {
            try Data(HostileFiles.onePagePDF(mediaBox: box)).write(to: URL(fileURLWithPath: path("\(name).pdf")))
            let result = try CLI.run(["compare", path("ok.pdf"), path("\(name).pdf")])
            #expect(!result.signalled, "\(box): killed by a signal")
            #expect([0, 1, 2, 3].contains(result.status), "\(box): exit \(result.status)")
            #expect(result.stderr.split(separator: "\n").count <= 1, "\(box): \(result.stderr)")
        }
        // The 1e26 box reaches the pixel conversion (poppler reads it as a number).
        let e26 = try CLI.run(["compare", path("ok.pdf"), path("big.pdf")])
        #expect(e26.status == 3 && e26.stderr.contains("page 1"), "\(e26.stderr)")
    }

    /// Finding 2: an SVG picture with an extreme size or aspect trapped in card, stopped a batch
    /// at its row, and (the same code) ended the service.
    @Test func anSVGsSizeOrAspectIsRefusedWithItsPath() throws {
        let pictures = [("wide", #"width="1e30" height="10""#), ("tall", #"width="10" height="1e300""#),
                        ("thin", #"width="1e-300" height="100""#), ("box", #"viewBox="0 0 1e38 1""#)]
        for (name, size) in pictures {
            try Data(#"<svg xmlns="http://www.w3.org/2000/svg" \#(size)><rect width="10" height="10"/></svg>"#.utf8)
                .write(to: URL(fileURLWithPath: path("\(name).svg")))
            for width in ["", #", "width": 300"#, #", "height": 300"#] {
                let spec = #"{"size": "400x400", "blocks": [{"type": "image", "src": "\#(name).svg"\#(width)}]}"#
                try Data(spec.utf8).write(to: URL(fileURLWithPath: path("card.json")))
                let result = try CLI.run(["card", path("card.json"), "-o", path("out.png")])
                #expect(!result.signalled, "\(name)\(width): killed by a signal")
                #expect([0, 3].contains(result.status), "\(name)\(width): exit \(result.status)")
                if result.status == 3 {
                    #expect(result.stderr.contains("blocks[0].src") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                }
            }
        }
        // In a batch the rows after a hostile one still render.
        let template = #"{"size": "300x300", "blocks": [{"type": "image", "src": "{{pic}}.svg"}]}"#
        try Data(template.utf8).write(to: URL(fileURLWithPath: path("template.json")))
        try Data("id,pic\nfirst,wide\nsecond,thin\n".utf8).write(to: URL(fileURLWithPath: path("rows.csv")))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="10" height="10"/></svg>"#.utf8)
            .write(to: URL(fileURLWithPath: path("fine.svg")))
        try Data("id,pic\nfirst,wide\nsecond,fine\n".utf8).write(to: URL(fileURLWithPath: path("rows.csv")))
        let batch = try CLI.run(["batch", "--template", path("template.json"), "--data", path("rows.csv"), "--output", "{{id}}.png",
                                 "--out-dir", path("cards"), "--quiet"])
        #expect(!batch.signalled && batch.status == 3, "\(batch.status) \(batch.stderr)")
        #expect(FileManager.default.fileExists(atPath: path("cards/second.png")))
    }

    /// A row's SVG picture is decoded by a limited worker (batch's default): a decoder that
    /// crashes (here killed by SIGSEGV while it draws a 10,000-segment path) fails that row
    /// with one line, and the rows after it render.
    @Test func aBatchRowWhosePictureDecoderCrashesFailsAlone() throws {
        var seed: UInt64 = 1
        let points = (0..<10_000).map { _ -> String in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return "L\((seed >> 33) % 1000) \((seed >> 20) % 1000)"
        }.joined(separator: " ")
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><path d="M0 0 \#(points)Z" fill="red" fill-rule="evenodd" stroke="blue" stroke-width="3"/></svg>"#.utf8)
            .write(to: URL(fileURLWithPath: path("slow.svg")))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="10" height="10"/></svg>"#.utf8)
            .write(to: URL(fileURLWithPath: path("fine.svg")))
        try Data(#"{"size": "1000x1000", "padding": 0, "blocks": [{"type": "image", "src": "{{pic}}.svg"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path("template.json")))
        try Data("id,pic\nfirst,slow\nsecond,fine\n".utf8).write(to: URL(fileURLWithPath: path("rows.csv")))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["batch", "--template", path("template.json"), "--data", path("rows.csv"), "--output", "{{id}}.png",
                             "--out-dir", path("cards"), "--quiet", "--jobs", "1"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // The worker that draws (not the one asked for the size), found by its arguments; a
        // blocking wait (the suite's cooperative threads may all be busy), for up to 20 s.
        var worker: Int32?
        let deadline = Date().addingTimeInterval(20)
        while worker == nil, process.isRunning, Date() < deadline {
            worker = Self.children(of: process.processIdentifier).first { child in
                let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline"))) ?? Data()
                return arguments.range(of: Data("svg-raster".utf8)) != nil
            }
            if worker == nil { usleep(50_000) }
        }
        guard let found = worker else {
            process.terminate()
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            Issue.record("no decoder worker was seen drawing; the batch said: \(stderr)")
            return
        }
        #expect(kill(found, SIGSEGV) == 0)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 3, "\(process.terminationStatus) \(stderr)")
        #expect(stderr.contains("slow.svg") && stderr.contains("crash"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("cards/first.png")))
        #expect(FileManager.default.fileExists(atPath: path("cards/second.png")))
    }

    /// The children of a process, from each process's parent in /proc/N/stat.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let child = Int32(entry),
                  let stat = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/stat")),
                  let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            // After "pid (name)": the state, then the parent's pid.
            let fields = String(decoding: stat[(close + 1)...], as: UTF8.self).split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid ? child : nil
        }
    }

    /// A blurred background covering a card with a 1 x 50,000 picture: the blur layer is the
    /// part the canvas shows, not the whole 54-million-pixel stretch.
    @Test func aBlurredCoverBackgroundOfAnExtremePictureIsClippedToTheCanvas() throws {
        let strip = try CLI.run(["render", "--text", "|", "--size", "8", "--margin", "0", "--canvas", "1x4000", "-o", path("strip.png")])
        #expect(strip.status == 0, "\(strip.stderr)")
        let spec = #"{"size": "1080x1080", "background": {"image": "strip.png", "fit": "cover", "blur": 20}, "blocks": []}"#
        try Data(spec.utf8).write(to: URL(fileURLWithPath: path("bg.json")))
        let result = try CLI.run(["card", path("bg.json"), "-o", path("bg.png")])
        #expect(result.status == 0 && !result.signalled, "\(result.stderr)")
    }
}

/// Finding 6: FreeType inflated a whole WOFF 1.0 file at open, to the sizes it declares, before
/// the 30 MB bound was checked (1 GB and 8 s from a 1 MB file). The header is read first now.
@Suite struct WOFFBombTests {
    /// A WOFF 1.0 file with one table: `declared` bytes unpacked in all, the table `original`
    /// bytes unpacked from 16 packed.
    static func woff(declared: Int, original: Int) -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ v: Int) { out += [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func u16(_ v: Int) { out += [UInt8(v >> 8 & 255), UInt8(v & 255)] }
        let length = 44 + 20 + 16
        out += Array("wOFF".utf8); u32(0x0001_0000); u32(length); u16(1); u16(0); u32(declared)
        u16(1); u16(0); u32(0); u32(0); u32(0); u32(0); u32(0)  // version, metadata, private data
        out += Array("glyf".utf8); u32(64); u32(16); u32(original); u32(0)
        out += [UInt8](repeating: 0x78, count: 16)
        return out
    }

    @Test func declaredSizesAreCheckedBeforeFreeTypeInflatesAnything() throws {
        let dir = try CLI.scratchFolder()
        for (name, declared, original) in [("gigabyte", 1 << 30, 1 << 30 - 64), ("liar", 1000, 1 << 29)] {
            let font = dir.appendingPathComponent("\(name).woff")
            try Data(Self.woff(declared: declared, original: original)).write(to: font)
            let result = try CLI.run(["render", "--text", "hi", "--font", font.path, "-o", dir.appendingPathComponent("x.png").path])
            #expect(result.status == 3 && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("\(name).woff") && (result.stderr.contains("declares") || result.stderr.contains("unpack")), "\(result.stderr)")
        }
    }
}

/// Finding 5: the SVG guard was a text scan: EBCDIC (which libxml2 decodes) has no `<` to scan,
/// a `>` inside an attribute ended a tag early, `</g>` in a comment lowered the depth, and a
/// `data:` URI carried a whole unchecked second document. The guard now reads the document with
/// libxml2, as librsvg does.
@Suite struct SVGGuardTests {
    static let head = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">"#

    static func refused(_ bytes: [UInt8]) -> String? {
        do { try SVGPicture.check(bytes); return nil } catch { return "\(error)" }
    }

    @Test func whatTheScanMissedIsRefused() throws {
        let ebcdic = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/hostile-svg/ebcdic.svg")
        #expect(Self.refused(Array(try Data(contentsOf: ebcdic))) != nil, "EBCDIC")
        #expect(Self.refused(Array((#"<?xml version="1.0" encoding="ISO-8859-1"?>"# + Self.head + "</svg>").utf8))?.contains("UTF-8") == true)
        let quoted = Self.head + #"<image title="a>b" xlink:href="file:///etc/passwd" width="5" height="5"/></svg>"#
        #expect(Self.refused(Array(quoted.utf8))?.contains("/etc/passwd") == true, "a > inside an attribute")
        let nested = Self.head + String(repeating: "<g><!-- </g></g> -->", count: 70) + String(repeating: "</g>", count: 70) + "</svg>"
        #expect(Self.refused(Array(nested.utf8))?.contains("nested") == true, "</g> in comments")
        let inner = Self.head + #"<image xlink:href="file:///etc/passwd" width="5" height="5"/></svg>"#
        let data = Self.head + #"<image xlink:href="data:image/svg+xml;base64,\#(Data(inner.utf8).base64EncodedString())" width="5" height="5"/></svg>"#
        #expect(Self.refused(Array(data.utf8))?.contains("/etc/passwd") == true, "a data: document")
        let escaped = Self.head + #"<image href="data:image/svg+xml,\#(inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"/></svg>"#
        #expect(Self.refused(Array(escaped.utf8))?.contains("/etc/passwd") == true, "a percent-encoded data: document")
        #expect(Self.refused(Array((Self.head + "<!DOCTYPE x></svg>").utf8)) != nil)
    }

    @Test func ordinaryPicturesPass() throws {
        let logo = Fixtures.repo.appendingPathComponent("examples/assets/check-logo.svg")
        #expect(Self.refused(Array(try Data(contentsOf: logo))) == nil)
        let fine = #"<?xml version="1.0" encoding="utf-8"?>"# + Self.head + ##"<defs><g id="a"><rect width="2" height="2"/></g></defs><use href="#a"/><!-- > </g> --><text x="1" y="5">a &lt; b</text></svg>"##
        #expect(Self.refused(Array(fine.utf8)) == nil)
        let tiny = Self.head + "<rect width='5' height='5'/></svg>"
        let data = Self.head + #"<image href="data:image/svg+xml;base64,\#(Data(tiny.utf8).base64EncodedString())" width="5" height="5"/></svg>"#
        #expect(Self.refused(Array(data.utf8)) == nil)
    }
}

/// Finding 9: escapers compared Swift Characters, so `"`, `<`, `|` or `[` followed by a
/// combining mark (one grapheme cluster) and CR LF passed through as they were.
@Suite struct ScalarEscapingTests {
    static let marked = "Ana\"\u{301} onload='alert(1)' x=\"\u{301}<\u{301}b\u{483}>|\u{301}[\u{301}x]\r\n# heading"

    @Test func xmlAndHTMLEscapeEveryQuoteAndBracketWhateverFollows() {
        let escaped = Self.marked.xmlEscaped
        #expect(!escaped.unicodeScalars.contains("\""))
        #expect(!escaped.unicodeScalars.contains("<") && !escaped.unicodeScalars.contains(">"))
        let xml10 = Self.marked.xml10Escaped
        #expect(!xml10.unicodeScalars.contains("\r") && !xml10.unicodeScalars.contains("\n") && xml10.contains("&#13;&#10;"))
    }

    @Test func anSVGTextWithMarkedQuotesStaysOneWellFormedRoot() throws {
        let dir = try CLI.scratchFolder()
        let out = dir.appendingPathComponent("t.svg").path
        let result = try CLI.run(["render", "--text", Self.marked, "--title", Self.marked, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let lint = try runTool("/usr/bin/xmllint", ["--noout", out])
        #expect(lint.status == 0, "\(lint.output)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.contains("&quot;\u{301}"), "the marked quote is not escaped")
        let attributes = try runTool("/usr/bin/xmllint", ["--xpath", "count(//@onload)", out])
        #expect(attributes.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "an attribute escaped its quotes")
    }

    /// The Markdown summary: a file name with a marked `|`, `[` and CR LF adds no cell, link or
    /// heading.
    @Test func theMarkdownSummaryEscapesByScalar() {
        let cell = FolderReport.codeSpan("a|\u{301}b\r\n# c")
        #expect(!cell.unicodeScalars.contains("\r") && !cell.unicodeScalars.contains("\n"))
        let bars = cell.unicodeScalars.enumerated().filter { $0.element == "|" }.map(\.offset)
        let scalars = Array(cell.unicodeScalars)
        #expect(bars.allSatisfy { $0 > 0 && scalars[$0 - 1] == "\\" }, "\(cell)")
    }
}
