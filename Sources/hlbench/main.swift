import Codecs
import Compare
import Foundation
import Highlight
import Render

// Release-built benchmarks that print figures (no assertions). Run: swift run -c release hlbench
// [outline]. Peers that run as separate programs are timed side by side in scripts/bench.sh.

/// Where Fontconfig keeps its scan of the benchmark's font folder (without one it complains on
/// stderr that it has nowhere to write).
let benchFontCache = FileManager.default.temporaryDirectory.appendingPathComponent("hlbench-fontconfig").path

func measure(_ label: String, runs: Int = 20, _ body: () -> Void) {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    let median = times[times.count / 2]
    print(String(format: "%@: median %.3f ms, min %.3f ms (%d runs)", label, median, times[0], runs))
}

/// 10,000 lines of pseudo-random widths (deterministic), centred, 60 px tall, with a blank
/// line every 40 lines: the outline of a very long caption.
func benchmarkOutline() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    let lines = (0..<10_000).map { i -> LineBox in
        let width = i % 40 == 39 ? 0 : 200 + next() * 700
        return LineBox(x: (1080 - width) / 2, top: Double(i) * 60, width: width, height: 60, blank: width == 0)
    }
    let style = HighlightStyle(paddingX: 14, paddingY: 4, radius: .auto)
    var outline = Outline(contours: [])
    measure("outline, 10,000 lines") { outline = OutlineBuilder.outline(lines, style: style) }
    measure("outline + SVG path, 10,000 lines") { _ = OutlineBuilder.outline(lines, style: style).svgPath() }
    print("  contours: \(outline.contours.count), segments: \(outline.contours.reduce(0) { $0 + $1.segments.count })")
}

/// Writes a 1080x1920 pair for `compare` benchmarks: a card-like image with text-like detail,
/// and the same with one 100x100 block changed.
func writeComparePair(to folder: String) throws {
    var image = RGBAImage(width: 1080, height: 1920, fill: (233, 68, 106, 255))
    for y in 0..<1920 {
        for x in 0..<1080 where (x / 3 + y / 5) % 7 == 0 || (x * y) % 11 == 0 {
            image[x, y] = (UInt8(x % 256), UInt8(y % 256), 255, 255)
        }
    }
    var changed = image
    for y in 900..<1000 { for x in 500..<600 { changed[x, y] = (20, 200, 40, 255) } }
    try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: folder + "/expected.png"))
    try Data(try PNGCodec.encode(changed)).write(to: URL(fileURLWithPath: folder + "/actual.png"))
}

/// Blurs a full 1080x1920 ARGB32 surface at sigma 11 (one core), and writes the same image as
/// a PNG for the vips run in scripts/bench.sh.
func benchmarkBlur(pngFolder: String?) throws {
    let width = 1080, height = 1920
    var source = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            let ink: UInt8 = (x / 7 + y / 13) % 5 == 0 ? 255 : 40
            source[i] = ink; source[i + 1] = UInt8(x & 255); source[i + 2] = UInt8(y & 255); source[i + 3] = 255
        }
    }
    var work = source
    measure("box blur 1080x1920 ARGB32, sigma 11", runs: 30) {
        work = source
        work.withUnsafeMutableBufferPointer {
            BoxBlur.blur($0.baseAddress!, width: width, height: height, stride: width * 4, sigma: 11)
        }
    }
    var copyOnly = source
    measure("  copying the source alone (inside the figure above)", runs: 30) { copyOnly = source; copyOnly[0] = 1 }
    if let folder = pngFolder {
        try Data(try PNGCodec.encode(RGBAImage(width: width, height: height, pixels: source)))
            .write(to: URL(fileURLWithPath: folder + "/blur-input.png"))
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let which = arguments.first ?? "all"
if which == "outline" || which == "all" { benchmarkOutline() }
if which == "blur" || which == "all" { try benchmarkBlur(pngFolder: arguments.count > 1 ? arguments[1] : nil) }
if which == "encode" { try benchmarkEncoders(examples: arguments[1], fonts: arguments[2]) }
if which == "animation" { try benchmarkAnimation(spec: arguments[1], fonts: arguments[2]) }
if which == "compare-pair" { try writeComparePair(to: arguments.count > 1 ? arguments[1] : ".") }
