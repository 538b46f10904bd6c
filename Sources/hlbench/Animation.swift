import Card
import Foundation
import Motion
import Render
import Support
import Typeset

/// An animated card against its still card, in one process: the still card built, drawn and
/// encoded as WebP (what one card costs), and the whole animation's time per frame (layout
/// once, the base and the finished card drawn once, only what moves drawn again).
func benchmarkAnimation(spec path: String, fonts: String) throws {
    let library = try FontLibrary(directories: [fonts], includeSystemFonts: false, cacheDirectory: benchFontCache)
    let engine = Engine(world: World(fonts: try FontContext(library: library)) { path in
        guard let data = FileManager.default.contents(atPath: path) else { throw CardError("", "cannot read \(path)") }
        return [UInt8](data)
    })
    let json = try JSONValue.parse([UInt8](FileManager.default.contents(atPath: path)!))
    let folder = (path as NSString).deletingLastPathComponent
    var stillTimes: [Double] = [], pngTimes: [Double] = [], animationTimes: [Double] = []
    var last: AnimationReport?
    var bytes = 0
    for _ in 0..<15 {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try engine.render(json, variables: [:], folder: folder, job: Job(format: .webp))
        stillTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    for _ in 0..<15 {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try engine.render(json, variables: [:], folder: folder, job: Job(format: .png))
        pngTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        let (output, r) = try engine.animate(try engine.parse(json, variables: [:], folder: folder), as: .webp, job: Job(format: .png))
        animationTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        (last, bytes) = (r, output.bytes.count)
    }
    let still = stillTimes.sorted()[stillTimes.count / 2], animation = animationTimes.sorted()[animationTimes.count / 2]
    let report = last!
    let perFrame = animation / Double(report.frames)
    print(String(format: "still card (build, draw, WebP q90): median %.1f ms", still))
    print(String(format: "animation: median %.0f ms for %d frames (%d drawn, %d repeated), %d bytes", animation, report.frames,
                 report.drawn, report.frames - report.drawn, bytes))
    let png = pngTimes.sorted()[pngTimes.count / 2]
    print(String(format: "still card as PNG (fast): median %.1f ms", png))
    print(String(format: "per frame: %.2f ms, %.1fx the still WebP card's rate, %.1fx the still PNG card's", perFrame, still / perFrame, png / perFrame))
}
