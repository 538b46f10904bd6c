import Foundation
import Typeset

/// The repo's pinned fonts only, so results do not depend on the machine.
package enum Fixtures {
    package static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    package static let fonts = repo.appendingPathComponent("fonts").path
    /// Sample texts kept in the repository (see Tests/Fixtures/corpus/README.md).
    package static let corpus = repo.appendingPathComponent("Tests/Fixtures/corpus")
    package static let library = try! FontLibrary(directories: [fonts], includeSystemFonts: false)

    /// Every pinned font file's name and bytes, in name order: the same fonts given as bytes.
    package static func pinnedFontBytes() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: fonts).filter { $0.hasSuffix(".ttf") || $0.hasSuffix(".otf") }.sorted()
        return try names.map { ($0, Array(try Data(contentsOf: URL(fileURLWithPath: fonts + "/" + $0)))) }
    }

    package static func layout(_ text: String, font: String = "Noto Sans", size: Double = 48, width: Double? = nil,
                       align: Alignment = .start, direction: BaseDirection = .auto) throws -> Layout {
        let spec = try FontSpec.parse(font) { FileManager.default.fileExists(atPath: $0) }
        return try Typesetter(library: library, font: spec)
            .layout(text, style: TypesetStyle(size: size, width: width, alignment: align, direction: direction))
    }

    package static func corpusText(_ name: String) throws -> String {
        var text = try String(contentsOf: corpus.appendingPathComponent("\(name).txt"), encoding: .utf8)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Advance sum of `text` as `hb-shape` (HarfBuzz's own tool) measures it, in px.
    package static func hbShapeWidth(_ text: String, font: String, size: Double) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/hb-shape")
        // hb-shape prints whole numbers: shape at 100x the size and divide.
        process.arguments = ["--font-size=\(size * 100)", "--no-glyph-names", "--output-format=json", font, text]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let glyphs = try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
        return glyphs.reduce(0) { $0 + (($1["ax"] as? NSNumber)?.doubleValue ?? 0) } / 100
    }
}

/// Line count of a greedy fill computed independently of the typesetter: word widths from
/// hb-shape, breaks only at spaces (enough for plain Latin text).
package func independentLatinLineCount(_ text: String, width: Double, size: Double) throws -> Int {
    let font = Fixtures.fonts + "/NotoSans-Regular.ttf"
    var total = 0
    for paragraph in text.split(separator: "\n") {
        let words = paragraph.split(separator: " ").map(String.init)
        var current = ""
        var lines = 1
        for word in words {
            let candidate = current.isEmpty ? word : current + " " + word
            let fits = try current.isEmpty || Fixtures.hbShapeWidth(candidate, font: font, size: size) <= width
            if fits {
                current = candidate
            } else {
                lines += 1
                current = word
            }
        }
        total += lines
    }
    return total
}

extension Layout {
    /// Each line's text with trailing whitespace removed.
    package var lineTexts: [String] { lines.map { $0.text.trimmingCharacters(in: .whitespaces) } }
    package var breakOffsets: [Int] { lines.map(\.end) }
}
