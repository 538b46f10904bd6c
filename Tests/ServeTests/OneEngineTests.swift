// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Foundation
import HLRenderKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import Serve
import ServeConfig
import TestSupport
import Testing

/// Issue 54: the CLI, batch, the service and HLRenderKit go through one engine in one kind of
/// world, so one card is one file whichever door it comes through: text with fallback and a
/// highlight, a gradient, a picture read through each front end's own file policy.
@Suite struct OneEngineTests {
    static let spec = ##"{"size": "480x240", "padding": 16, "background": {"gradient": {"angle": 90, "stops": ["#223344", "#556677"]}}, "color": "white", "blocks": [{"type": "text", "text": "One engine, مرحبا 日本", "size": 30, "highlight": "#AA3355", "anchor": "center"}, {"type": "image", "src": "stripes.png", "width": 48, "anchor": "top-left"}]}"##

    @Test func oneCardIsOneFileThroughEveryFrontEnd() async throws {
        var fixture = try ServeFixture()
        fixture.settings.cacheBytes = 0
        let assets = URL(fileURLWithPath: fixture.settings.assets!)
        let specFile = assets.appendingPathComponent("card.json")
        try Data(Self.spec.utf8).write(to: specFile)

        // The CLI: hlrender card.
        let cliOut = fixture.root.appendingPathComponent("cli.png")
        let cli = try CLI.run(["card", specFile.path, "-o", cliOut.path, "--no-system-fonts"])
        #expect(cli.status == 0, "\(cli.stderr)")

        // Batch: the spec as a template of one row (its pictures decoded by the worker).
        try Data("id\none\n".utf8).write(to: assets.appendingPathComponent("rows.csv"))
        let out = fixture.root.appendingPathComponent("out")
        let batch = try CLI.run(["batch", "--template", specFile.path, "--data", assets.appendingPathComponent("rows.csv").path,
                                 "--output", "{{id}}.png", "--out-dir", out.path, "--no-system-fonts", "--quiet"])
        #expect(batch.status == 0, "\(batch.stderr)")

        // The service.
        let served = try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: ByteBuffer(string: Self.spec)) { response in
                #expect(response.status == .ok)
                return Data(buffer: response.body)
            }
        }

        // HLRenderKit, with the pinned fonts given as bytes: no folder at all.
        var environment = RenderEnvironment(fontDirectories: [])
        environment.fonts = try Fixtures.pinnedFontBytes().map { FontBytes(name: $0.name, bytes: $0.bytes) }
        var settings = RenderSettings()
        settings.folder = assets.path
        let kit = try await HLRenderer(environment: environment).renderCard(json: Self.spec, options: settings)

        let files = [("cli", try Data(contentsOf: cliOut)), ("batch", try Data(contentsOf: out.appendingPathComponent("one.png"))),
                     ("service", served), ("HLRenderKit from bytes", Data(kit.bytes))]
        for (door, bytes) in files.dropFirst() {
            #expect(bytes == files[0].1, "\(door): \(bytes.count) bytes, the CLI's \(files[0].1.count)")
        }
        // The layout report names a font given as bytes by the name it was given.
        #expect(kit.layoutJSON.contains(#""file": "NotoSans-Regular.ttf""#), "\(kit.layoutJSON.prefix(600))")
    }
}
#endif
