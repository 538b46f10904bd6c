import Codecs
import Render
import Compare
import Foundation

/// Golden images: `Tests/<Target>/References/<area>/<test>.png`, compared with our own
/// comparator. HLRENDER_RECORD=1 re-records; a failure writes expected | difference | actual
/// to the git-ignored `Tests/Failures/` and names it in the failure.
/// A check of the support helpers that failed: thrown, so the test running it fails with this
/// message (the helpers stay free of the test framework and build with the package).
package struct TestFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

package enum Golden {
    package static var recording: Bool { ProcessInfo.processInfo.environment["HLRENDER_RECORD"] == "1" }
    package static let failures = Fixtures.repo.appendingPathComponent("Tests/Failures")

    package static func check(_ png: [UInt8], area: String, name: String, threshold: Double = 0.1,
                             maxDiffPixels: Int = 0, filePath: String = #filePath) throws {
        let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("References/\(area)")
        let reference = folder.appendingPathComponent("\(name).png")
        if recording {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(png).write(to: reference)
            return
        }
        guard let expectedData = FileManager.default.contents(atPath: reference.path) else {
            throw TestFailure("missing golden \(reference.path); look at the render, then run with HLRENDER_RECORD=1")
        }
        let expected = try PNGCodec.decode([UInt8](expectedData))
        let actual = try PNGCodec.decode(png)
        guard expected.width == actual.width, expected.height == actual.height else {
            let written = try writeFailure(area: area, name: name, expected: expected, actual: actual, panel: nil)
            throw TestFailure("\(area)/\(name): size \(actual.width)x\(actual.height), golden \(expected.width)x\(expected.height); see \(written)")
        }
        var options = DiffOptions()
        options.threshold = threshold
        var panel = RGBAImage(width: 0, height: 0, pixels: [])
        let result = try ImageDiff.compare(expected, actual, options: options, maxPixels: .max, diffPanel: &panel)
        if result.differentPixels > maxDiffPixels {
            let written = try writeFailure(area: area, name: name, expected: expected, actual: actual, panel: panel)
            throw TestFailure("\(area)/\(name): \(result.differentPixels) pixels differ; diff written to \(written)")
        }
    }

    private static func writeFailure(area: String, name: String, expected: RGBAImage, actual: RGBAImage,
                                     panel: RGBAImage?) throws -> String {
        let folder = failures.appendingPathComponent(area)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let blank = RGBAImage(width: max(expected.width, actual.width), height: 1, fill: (255, 255, 255, 255))
        let image = ImageDiff.threePanel(expected: expected, difference: panel ?? blank, actual: actual)
        let path = folder.appendingPathComponent("\(name).diff.png").path
        try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
