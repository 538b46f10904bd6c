import Foundation
import TestSupport
import Testing

/// What the library promises about itself, read from its sources: it takes the world from its
/// caller, and every public declaration says what it is. The layers below HLRenderKit share
/// their declarations with `package` access, so the public API is HLRenderKit's alone.
@Suite struct LibraryHygieneTests {
    /// The targets behind the HLRenderKit product (C shims included).
    static let libraryTargets = ["Support", "Typeset", "Highlight", "Steps", "Motion", "Markup", "Render", "Card", "Pages", "Compare",
                                 "Goldens", "Codecs", "HLRenderKit", "CTextBreak", "CHyphen", "CPNGCodec", "CJPEGCodec"]

    static func sources(_ target: String, extensions: Set<String>) throws -> [(String, String)] {
        let folder = Fixtures.repo.appendingPathComponent("Sources/\(target)")
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { extensions.contains($0.pathExtension) }.map {
            ($0.path.replacingOccurrences(of: Fixtures.repo.path + "/", with: ""), try String(contentsOf: $0, encoding: .utf8))
        }
    }

    @Test func theLibraryReadsNoEnvironmentArgvOrSourcePath() throws {
        let forbidden = ["getenv(", "ProcessInfo", "CommandLine.", "#filePath", "#file)", "environ["]
        var found: [String] = []
        for target in Self.libraryTargets {
            for (path, text) in try Self.sources(target, extensions: ["swift", "c", "h"]) {
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where forbidden.contains(where: { line.contains($0) }) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        #expect(try Self.sources("HLRenderKit", extensions: ["swift"]).count >= 4)  // the scan sees files
    }

    /// Issue 48: one checked conversion from floating-point sizes to integers
    /// (`Checked.side`, `Checked.int`, `Checked.clamped`); a raw `Int(x.rounded())` of input
    /// geometry trapped on 1e26. Found by the shapes such conversions take (rounding, floor,
    /// ceil, a square root or power inside an integer initializer): a floor, since a bare
    /// `Int(someDouble)` cannot be told from `Int(someInt32)` without types.
    @Test func noRawFloatingToIntegerConversionOutsideChecked() throws {
        let conversion = try Regex(#"\b(U?Int(8|16|32|64)?)\((?!exactly:|bitPattern:|truncatingIfNeeded:|clamping:)([^()]|\([^()]*\))*(\.rounded|floor\(|ceil\(|squareRoot|pow\(|trunc\()"#)
        var found: [String] = []
        for target in Self.libraryTargets + ["PDFGoldens", "Serve", "Batch", "ServeConfig", "Flags"] {
            for (path, text) in try Self.sources(target, extensions: ["swift"]) where !path.hasSuffix("Support/Checked.swift") {
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains(conversion) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "use Checked.side / Checked.clamped:\n\(found.joined(separator: "\n"))")
        #expect("let w = Int((width * dpi / 72).rounded(.up))".contains(conversion))  // the scan sees the shape that trapped
    }

    @Test func everyPublicDeclarationIsDocumentedAndOnlyTheKitHasAny() throws {
        var undocumented: [String] = []
        var declarations = 0
        var outside: [String] = []
        let targets = try FileManager.default.contentsOfDirectory(atPath: Fixtures.repo.appendingPathComponent("Sources").path)
        for target in targets {
            for (path, text) in try Self.sources(target, extensions: ["swift"]) where target != "HLRenderKit" {
                outside += text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("public ") }
                    .map { "\(path): \($0)" }
            }
        }
        #expect(outside.isEmpty, "public outside HLRenderKit:\n\(outside.joined(separator: "\n"))")
        for (path, text) in try Self.sources("HLRenderKit", extensions: ["swift"]) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where line.hasPrefix("public ") && !line.hasPrefix("public import") {
                declarations += 1
                var above = index - 1
                while above >= 0, lines[above].hasPrefix("@") { above -= 1 }  // attributes between
                if above < 0 || !lines[above].hasPrefix("///") { undocumented.append("\(path):\(index + 1): \(line)") }
            }
        }
        #expect(declarations > 20)
        #expect(undocumented.isEmpty, "\(undocumented.count) undocumented:\n\(undocumented.joined(separator: "\n"))")
    }
}
