// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import Serve
import ServeConfig
import Testing

/// The service's memory budget and bounded request values (faults 6 and 7).
@Suite struct ServeBudgetTests {
    /// A card whose drawing could never fit the budget is 413 before any surface is made; a
    /// small one still renders, and the budget is whole again afterwards.
    @Test func aCardOverTheMemoryBudgetIs413() async throws {
        var fixture = try ServeFixture()
        fixture.settings.memoryBytes = 32 << 20
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card(size: "4000x3000")) { response in
                #expect(response.status == .contentTooLarge)
                let error = try errorJSON(response)
                #expect(error["error"]?.contains("memory budget of 32 MB") == true, "\(error)")
            }
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { #expect($0.status == .ok) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains("hlrender_memory_reserved_bytes 0"))
            }
        }
    }

    /// A huge or malformed `lang` is a 422 naming the key, not an interned string.
    @Test func aHostileLanguageIs422() async throws {
        let fixture = try ServeFixture()
        let tag = String(repeating: "q", count: 200_000)
        try await fixture.app().test(.router) { client in
            let spec = ByteBuffer(string: ##"{"size": "320x160", "blocks": [{"type": "text", "text": "hi", "lang": "\##(tag)"}]}"##)
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: spec) { response in
                #expect(response.status == .unprocessableContent)
                let error = try errorJSON(response)
                #expect(error["path"] == "blocks[0].lang", "\(error)")
                #expect((error["error"]?.count ?? .max) < 300)
            }
        }
    }

    /// The default budget is computed with the --cache-mb given, not the default one.
    @Test func theDefaultBudgetFollowsTheCacheGiven() throws {
        var settings = ServeSettings()
        try ServeSettings.options.named("cache-mb")!.apply(.text("64"), to: &settings)
        #expect(settings.memoryBudget == ServeSettings.defaultMemoryBytes(cacheBytes: 64 << 20))
        #expect(settings.renderedCacheBytes + settings.pictureCacheBytes + settings.backgroundCacheBytes == 64 << 20)
        try ServeSettings.options.named("memory-mb")!.apply(.text("300"), to: &settings)
        #expect(settings.memoryBudget == 300 << 20)
    }

    @Test func theDefaultBudgetFollowsACgroupLimit() {
        #expect(ServeSettings.defaultMemoryBytes(cgroupLimit: nil) == 512 << 20)
        #expect(ServeSettings.defaultMemoryBytes(cacheBytes: 256 << 20, cgroupLimit: 1 << 30) == (1 << 30) - (416 << 20))
        #expect(ServeSettings.defaultMemoryBytes(cgroupLimit: 100 << 20) == 64 << 20)
    }
}
#endif
