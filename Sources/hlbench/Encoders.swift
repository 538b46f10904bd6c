import Card
import Foundation
import Render
import Typeset
import Support

/// Draws each example card once, then times every encoder on the same pixels.
func benchmarkEncoders(examples: String, fonts: String) throws {
    let library = try FontLibrary(directories: [fonts], includeSystemFonts: false, cacheDirectory: benchFontCache)
    let engine = Engine(world: World(fonts: try FontContext(library: library)) { path in
        guard let data = FileManager.default.contents(atPath: path) else { throw CardError("", "cannot read \(path)") }
        return [UInt8](data)
    })
    let vars = ["quote": "A highlight should hug every line and never leave a seam", "author": "Sei Shōnagon",
                "title": "Stories disappear after a day", "caption": "A highlight hugs every line and never leaves a seam."]
    print("encoder timings per card (ms, median of 15) and bytes")
    // The example cards and the service benchmark's story card (bench/story-card.json).
    let specs = ["quote-photo", "headline-gradient", "steps-card", "rtl-card"].map { (name: $0, path: examples + "/\($0).json") }
        + [(name: "story-card", path: examples + "/../bench/story-card.json")]
    for (name, path) in specs {
        let json = try Variables.substitute(try JSONValue.parse([UInt8](FileManager.default.contents(atPath: path)!)), vars)
        let card = try CardBuilder.build(try engine.parse(filled: json, folder: examples), engine: engine, job: Job(format: .png))
        var options = RenderOptions()
        var canvas: ImageCanvas?
        measure("  \(name): draw", runs: 15) { canvas = try! engine.renderer.drawImage(card.scene, options: options) }
        options.format = .png
        var settings: [(String, RasterFormat, EncodeOptions)] = []
        for compression in PNGCompression.allCases {
            var e = EncodeOptions()
            e.pngCompression = compression
            settings.append(("png \(compression.rawValue)", .png, e))
        }
        settings.append(("jpeg q90", .jpeg, EncodeOptions()))
        settings.append(("webp q90", .webp, EncodeOptions()))
        var lossless = EncodeOptions()
        lossless.lossless = true
        settings.append(("webp lossless", .webp, lossless))
        for (label, format, encoding) in settings {
            var bytes: [UInt8] = []
            measure("  \(name): \(label)", runs: label.contains("small") || label.contains("lossless") ? 3 : 15) {
                bytes = try! canvas!.encode(as: format, options: encoding)
            }
            print("    \(bytes.count) bytes")
        }
    }
}
