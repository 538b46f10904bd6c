import Foundation
import HLRenderKit
import TestSupport
import Testing

/// `RenderEnvironment.decoderWorker`: a library caller rendering files it does not trust sends
/// SVG pictures and web fonts to a limited process (here the hlrender binary), gets the same
/// card, and a decoder past its CPU time fails that render alone.
@Suite struct DecoderWorkerTests {
    static let logo = Fixtures.repo.appendingPathComponent("examples/assets/check-logo.svg")
    static let webfonts = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/webfonts")

    func environment(worker: Bool, seconds: Int = 30) -> RenderEnvironment {
        var environment = RenderEnvironment(fontDirectories: [Fixtures.fonts])
        if worker { environment.decoderWorker = CLI.binary }
        environment.decoderSeconds = seconds
        return environment
    }

    @Test func aWorkerDrawsTheSameCard() async throws {
        let json = #"{"size": "500x300", "blocks": [{"type": "stack", "blocks": [{"type": "image", "src": "\#(Self.logo.path)", "width": 120}, "#
            + #"{"type": "text", "text": "Decoded apart", "font": "\#(Self.webfonts.path)/NotoSansLatin.woff2", "size": 40}]}]}"#
        let here = try await HLRenderer(environment: environment(worker: false)).renderCard(json: json)
        let there = try await HLRenderer(environment: environment(worker: true)).renderCard(json: json)
        #expect(here.bytes == there.bytes)
    }

    @Test func aDecoderPastItsTimeFailsThatRenderAlone() async throws {
        var generator: UInt64 = 7
        let points = (0..<10_000).map { _ -> String in
            generator = generator &* 6364136223846793005 &+ 1442695040888963407
            return "L\((generator >> 33) % 1000) \((generator >> 20) % 1000)"
        }.joined(separator: " ")
        let folder = try CLI.scratchFolder()
        let slow = folder.appendingPathComponent("slow.svg")
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><path d="M0 0 \#(points)Z" fill="red" fill-rule="evenodd" stroke="blue" stroke-width="3"/></svg>"#.utf8)
            .write(to: slow)
        let renderer = try HLRenderer(environment: environment(worker: true, seconds: 1))
        do {
            _ = try await renderer.renderCard(json: #"{"size": "1000x1000", "padding": 0, "blocks": [{"type": "image", "src": "\#(slow.path)"}]}"#)
            Issue.record("the slow picture rendered")
        } catch {
            #expect(error.kind == .input && error.path == "blocks[0].src" && error.message.contains("librsvg"), "\(error)")
        }
        // The renderer goes on.
        _ = try await renderer.renderCard(json: #"{"size": "400x200", "blocks": [{"type": "text", "text": "fine", "size": 20}]}"#)
    }
}
