import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import Serve
import TestSupport
import Testing

/// The service says what a card shows (issue 50): `Image-Description`, the card's visible text
/// percent-encoded, on a render and on a cache hit; never a restricted line's text.
@Suite struct ServeAltTests {
    private func decoded(_ header: String?) -> String? { header?.removingPercentEncoding }

    @Test func theHeaderCarriesTheVisibleTextOnlyAndSurvivesTheCache() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            let text = #"Café \"tonight\" ✓"#
            for _ in 0..<2 {  // a render, then the cached image: the same header
                try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card(text)) { response in
                    #expect(response.status == .ok)
                    #expect(decoded(response.headers[HTTPField.Name("Image-Description")!]) == "Café \"tonight\" ✓")
                }
            }
            let restricted = card("Shown line\\nhidden words here", size: "400x300", extra: #", "visible-lines": 1"#)
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: restricted) { response in
                #expect(response.status == .ok)
                let said = decoded(response.headers[HTTPField.Name("Image-Description")!]) ?? ""
                #expect(said == "Shown line", "\(said)")
            }
            try await client.execute(uri: "/v1/card?alt=Our%20logo", method: .post, headers: json, body: card()) { response in
                #expect(decoded(response.headers[HTTPField.Name("Image-Description")!]) == "Our logo")
            }
            try await client.execute(uri: "/v1/card?no-alt=true", method: .post, headers: json, body: card()) { response in
                #expect(response.headers[HTTPField.Name("Image-Description")!] == nil)
            }
        }
    }
}
