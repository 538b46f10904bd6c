// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Markup through the service: a card with markup renders; bad markup is a 422 that says where,
/// and the service goes on serving.
@Suite struct ServeRichTextTests {
    private let json: HTTPFields = [.contentType: "application/json"]

    @Test func markupRendersAndBadMarkupIs422() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            let bad = ByteBuffer(string: ##"{"size": "320x160", "blocks": [{"type": "text", "markup": "<b>hi</i>"}]}"##)
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: bad) { response in
                #expect(response.status == .unprocessableContent)
                let error = try errorJSON(response)
                #expect(error["path"] == "blocks[0].markup", "\(error)")
                #expect(error["error"]?.contains("line 1, column 6: </i> closes <b> opened at line 1, column 1") == true, "\(error)")
            }
            let good = ByteBuffer(string: ##"{"size": "320x160", "blocks": [{"type": "text", "markup": "<b>hi</b> <span highlight='#FFE066'>there</span>"}]}"##)
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: good) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            }
        }
    }
}
#endif
