import Foundation
import HLRenderKit

// embed SPEC.json OUT.png: renders a card spec to a PNG with hlrender's pinned fonts (they come
// with the package), as `hlrender card SPEC.json -o OUT.png --no-system-fonts` does.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: embed SPEC.json OUT.png\n".utf8))
    exit(2)
}
let (specPath, outputPath) = (arguments[1], arguments[2])
do {
    let renderer = try HLRenderer(environment: RenderEnvironment.pinned())
    var settings = RenderSettings(format: .png)
    settings.folder = URL(fileURLWithPath: specPath).deletingLastPathComponent().path
    let spec = try String(contentsOfFile: specPath, encoding: .utf8)
    let card = try await renderer.renderCard(json: spec, options: settings)
    try Data(card.bytes).write(to: URL(fileURLWithPath: outputPath))
    print("wrote \(outputPath): \(card.bytes.count) bytes")
} catch {
    FileHandle.standardError.write(Data("embed: \(error)\n".utf8))
    exit(3)
}
