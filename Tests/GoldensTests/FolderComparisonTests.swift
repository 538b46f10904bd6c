import Codecs
import Compare
import Foundation
import Goldens
import Render
import Support
import Testing

/// Globs, goldens.json, and two folders compared file by file through the one comparison.
@Suite struct GlobTests {
    @Test(arguments: [
        ("*.png", "a.png", true), ("*.png", "dir/a.png", false), ("**/*.png", "a.png", true),
        ("**/*.png", "x/y/a.png", true), ("screens/**", "screens/a/b.png", true), ("screens/**", "other/a.png", false),
        ("s?.png", "s1.png", true), ("s?.png", "s/.png", false), ("[ab].png", "b.png", true), ("[ab].png", "c.png", false),
        ("a/**/b.png", "a/b.png", true), ("a/**/b.png", "a/x/y/b.png", true), ("*", "", true),
    ])
    func matches(pattern: String, path: String, expected: Bool) throws {
        #expect(try Glob(pattern).matches(path) == expected)
    }

    @Test func longPatternsStayLinear() throws {
        let glob = try Glob(String(repeating: "*a", count: 200))
        #expect(!glob.matches(String(repeating: "a", count: 150)))
        #expect(throws: OptionError.self) { try Glob("[abc") }
    }
}

@Suite struct GoldenConfigTests {
    static func parse(_ text: String) throws -> GoldenConfig { try GoldenConfig(parsing: Array(text.utf8)) }

    @Test func rulesApplyInOrderOverTheBase() throws {
        let config = try Self.parse(#"""
            {"threshold": 0.2, "rules": [
              {"files": "screens/**", "max-diff-pixels": 50, "ignore": "0,0,10,10"},
              {"files": "screens/clock/*.png", "ignore": ["20,0,5,5"], "metric": "ssim", "min-ssim": 0.95}]}
            """#)
        let base = config.applyingOwnOptions(to: GoldenTolerance())
        #expect(base.options.threshold == 0.2)
        let clock = config.tolerance(for: "screens/clock/a.png", base: base)
        #expect(clock.limits.maxPixels == 50 && clock.options.ignore.count == 2 && clock.options.metric == .ssim && clock.options.minSSIM == 0.95)
        let other = config.tolerance(for: "other/a.png", base: base)
        #expect(other.limits.maxPixels == nil && other.options.ignore.isEmpty && other.options.metric == .pixelmatch)
    }

    @Test(arguments: [
        (#"{"treshold": 0.1}"#, "treshold: is not a comparison option"),
        (#"{"rules": [{"threshold": 0.1}]}"#, "rules[0]: needs \"files\""),
        (#"{"rules": [{"files": "*", "threshold": 3}]}"#, "rules[0].threshold:"),
        (#"{"metric": "psnr"}"#, "metric: 'psnr' is not pixelmatch or ssim"),
        ("[1]", "must be a JSON object"),
    ])
    func badFilesNameThePlace(text: String, message: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}

@Suite struct FolderComparisonTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hlrender-folders-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ image: RGBAImage, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: path))
    }

    static func image(_ fill: (UInt8, UInt8, UInt8, UInt8), dot: (Int, Int)? = nil, size: (Int, Int) = (40, 30)) -> RGBAImage {
        var image = RGBAImage(width: size.0, height: size.1, fill: fill)
        if let dot { image[dot.0, dot.1] = (0, 0, 0, 255) }
        return image
    }

    /// expected/actual with one file of each status.
    static func trees() throws -> (String, String) {
        let root = try folder(), e = root + "/expected", a = root + "/actual"
        let white = image((255, 255, 255, 255))
        for name in ["same.png", "sub/dot.png", "sub/clock.png", "size.png", "gone.png"] { try write(white, "\(e)/\(name)") }
        try write(white, "\(a)/same.png")
        try write(image((255, 255, 255, 255), dot: (5, 5)), "\(a)/sub/dot.png")
        try write(image((255, 255, 255, 255), dot: (1, 1)), "\(a)/sub/clock.png")
        try write(image((255, 255, 255, 255), size: (40, 31)), "\(a)/size.png")
        try write(white, "\(a)/new.png")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(e)/notes.txt"))
        return (e, a)
    }

    static func statuses(_ entries: [FolderComparison.Entry]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0.status.rawValue) })
    }

    @Test func everyFileGetsAStatusAndAReason() throws {
        let (e, a) = try Self.trees()
        let entries = try FolderComparison.run(expected: e, actual: a, settings: FolderComparison.Settings())
        #expect(Self.statuses(entries) == ["gone.png": "missing", "new.png": "new", "same.png": "same", "size.png": "changed",
                                           "sub/clock.png": "changed", "sub/dot.png": "changed"])
        #expect(entries.first { $0.path == "size.png" }?.outcome?.kind == .size)
        #expect(entries.first { $0.path == "sub/dot.png" }?.outcome?.kind == .changed)
    }

    @Test func configRulesAndIgnoreRegionsChangeVerdicts() throws {
        let (e, a) = try Self.trees()
        var settings = FolderComparison.Settings()
        settings.config = try GoldenConfig(parsing: Array(#"""
            {"rules": [{"files": "sub/clock.png", "ignore": "0,0,3,3"}, {"files": "sub/d*.png", "max-diff-pixels": 1}]}
            """#.utf8))
        settings.jobs = 3
        let entries = try FolderComparison.run(expected: e, actual: a, settings: settings)
        #expect(Self.statuses(entries)["sub/clock.png"] == "same" || Self.statuses(entries)["sub/clock.png"] == "within")
        #expect(Self.statuses(entries)["sub/dot.png"] == "within")
        #expect(Self.statuses(entries)["size.png"] == "changed")
    }

    @Test func updateChangedRewritesExactlyTheFailingFiles() throws {
        let (e, a) = try Self.trees()
        // Same pixels in other bytes: within every limit, so never rewritten.
        try Data(Self.withText(try PNGCodec.encode(Self.image((255, 255, 255, 255))))).write(to: URL(fileURLWithPath: "\(a)/same.png"))
        let before = try Self.snapshot(e)
        let entries = try FolderComparison.run(expected: e, actual: a, settings: FolderComparison.Settings())
        let written = try Baselines.write(entries, from: a, to: e, maxFileBytes: 1 << 20, select: BaselineUpdate.changed.writes)
        #expect(Set(written) == ["size.png", "sub/clock.png", "sub/dot.png", "new.png"])
        let after = try Self.snapshot(e)
        for (path, old) in before {
            let touched = written.contains(path)
            #expect((after[path]! != old) == touched, "\(path)")
        }
        #expect(after["gone.png"] == before["gone.png"])  // a baseline with no actual file stays
        let again = try FolderComparison.run(expected: e, actual: a, settings: FolderComparison.Settings())
        #expect(Self.statuses(again).filter { $0.value != "same" && $0.value != "within" } == ["gone.png": "missing"])
    }

    @Test func updateMissingOnlyAddsNewFiles() throws {
        let (e, a) = try Self.trees()
        let entries = try FolderComparison.run(expected: e, actual: a, settings: FolderComparison.Settings())
        #expect(try Baselines.write(entries, from: a, to: e, maxFileBytes: 1 << 20, select: BaselineUpdate.missing.writes) == ["new.png"])
    }

    /// Each file's bytes and modification time.
    static func snapshot(_ root: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for path in try FolderComparison.images(under: root) {
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(root)/\(path)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(path)"))
            out[path] = "\((attributes[.modificationDate] as! Date).timeIntervalSince1970) \(bytes.hashValue) \(bytes.count)"
        }
        return out
    }

    /// The same PNG with a tEXt chunk before IEND: other bytes, the same pixels.
    static func withText(_ png: [UInt8]) -> [UInt8] {
        let body = Array("tEXtComment\u{0}same pixels".utf8)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        let be = { (v: UInt32) in [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Array(png.dropLast(12)) + be(UInt32(body.count - 4)) + body + be(crc) + png.suffix(12)
    }

    @Test func samePixelsInOtherBytesAreSame() throws {
        let root = try Self.folder()
        let png = try PNGCodec.encode(Self.image((9, 99, 199, 255)))
        try Self.write(Self.image((9, 99, 199, 255)), root + "/e/x.png")
        try FileManager.default.createDirectory(atPath: root + "/a", withIntermediateDirectories: true)
        try Data(Self.withText(png)).write(to: URL(fileURLWithPath: root + "/a/x.png"))
        let entries = try FolderComparison.run(expected: root + "/e", actual: root + "/a", settings: FolderComparison.Settings())
        #expect(entries.map(\.status) == [.same] && entries.first?.outcome?.sameBytes == false)
    }
}

/// The Markdown summary's file column: every name shown exactly, one cell each.
@Suite struct SummaryCodeSpanTests {
    @Test func namesStayWholeInTheirCell() {
        #expect(FolderReport.codeSpan("ui/card.png") == "`ui/card.png`")
        #expect(FolderReport.codeSpan("a|b.png") == #"`a\|b.png`"#)
        #expect(FolderReport.codeSpan("it`s.png") == "``it`s.png``")
        #expect(FolderReport.codeSpan("`x.png") == "`` `x.png ``")
        #expect(FolderReport.codeSpan("two\nlines.png") == "`two lines.png`")
    }
}
