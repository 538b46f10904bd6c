// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Codecs
import Render
import Compare
import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import Serve
import ServeConfig
import Support
import TestSupport
import Testing

/// The faults a hostile client found, each answered: keyed ETags, restricted cards named by
/// nothing, assets watched, HTTP's method rules, no server path in an error.
@Suite struct ServeHardeningTests {
    static let restricted = ByteBuffer(string: ##"{"size": "320x200", "padding": 8, "blocks": [{"type": "text", "text": "one two three four five six seven", "size": 24, "width": 200, "visible-lines": 1}]}"##)

    /// The ETag of a card is keyed: two services with different keys tag the same render
    /// differently, and one sharing a key file agrees.
    @Test func etagsAreKeyed() async throws {
        var fixture = try ServeFixture()
        func tag(_ fixture: ServeFixture) async throws -> String? {
            try await fixture.app().test(.router) { client in
                try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { $0.headers[.eTag] }
            }
        }
        let randomA = try await tag(fixture), randomB = try await tag(fixture)
        #expect(randomA != nil && randomA != randomB, "a random key per process")
        fixture.settings.etagKey = Array("a shared key of some length".utf8)
        let sharedA = try await tag(fixture), sharedB = try await tag(fixture)
        #expect(sharedA != nil && sharedA == sharedB)
        // An unkeyed digest of the spec is not the tag.
        #expect(sharedA != "\"" + SHA256.hex(Array(String(buffer: card()).utf8)).prefix(32) + "\"")
    }

    /// Restricted content: no ETag to test guesses against, no shared caching, no 304.
    @Test func restrictedCardsAreNamedByNothing() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: Self.restricted) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] == nil)
                #expect(response.headers[.cacheControl] == "private, no-store")
            }
            var star = json
            star[.ifNoneMatch] = "*"
            try await client.execute(uri: "/v1/card", method: .post, headers: star, body: Self.restricted) { response in
                #expect(response.status == .ok)
            }
        }
    }

    /// `If-None-Match: *` is no 304 for a POST, nor for a spec that does not parse.
    @Test func starIsNotAnAnswerToAPost() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            var star = json
            star[.ifNoneMatch] = "*"
            try await client.execute(uri: "/v1/card", method: .post, headers: star, body: card()) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/card", method: .post, headers: star, body: ByteBuffer(string: #"{"blocks": 5}"#)) { response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/v1/templates/og.png?title=Hi&img=stripes.png", method: .get, headers: [.ifNoneMatch: "*"]) { response in
                #expect(response.status == .notModified)
            }
        }
    }

    /// A picture replaced on disk changes the ETag and the pixels, cache or not.
    @Test func replacedAssetsAreSeen() async throws {
        let fixture = try ServeFixture()
        let spec = ByteBuffer(string: ##"{"size": "120x80", "padding": 0, "background": {"image": "pic.png"}, "blocks": []}"##)
        let pic = URL(fileURLWithPath: fixture.settings.assets!).appendingPathComponent("pic.png")
        try Data(try PNGCodec.encode(RGBAImage(width: 12, height: 8, fill: (255, 0, 0, 255)))).write(to: pic)
        try await fixture.app().test(.router) { client in
            let (tagA, red) = try await client.execute(uri: "/v1/card", method: .post, headers: json, body: spec) { response in
                (response.headers[.eTag], try PNGCodec.decode(body(response)))
            }
            // Replaced by a new file (a new inode), as a deploy does.
            let next = pic.deletingLastPathComponent().appendingPathComponent("next.png")
            try Data(try PNGCodec.encode(RGBAImage(width: 12, height: 8, fill: (0, 0, 255, 255)))).write(to: next)
            #expect(rename(next.path, pic.path) == 0)
            let (tagB, blue) = try await client.execute(uri: "/v1/card", method: .post, headers: json, body: spec) { response in
                (response.headers[.eTag], try PNGCodec.decode(body(response)))
            }
            #expect(tagA != nil && tagA != tagB)
            #expect(red[60, 40].0 == 255 && blue[60, 40].2 == 255, "\(red[60, 40]) then \(blue[60, 40])")
        }
    }

    @Test func headAndMethodNotAllowed() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            for uri in ["/healthz", "/readyz", "/metrics", "/v1/templates/og.png?title=Hi&img=stripes.png"] {
                let get = try await client.execute(uri: uri, method: .get) { ($0.status, $0.headers[.contentLength]) }
                try await client.execute(uri: uri, method: .head) { response in
                    #expect(response.status == get.0, "HEAD \(uri)")
                    #expect(response.body.readableBytes == 0, "HEAD \(uri)")
                    // The metrics page changes between two requests; the others do not.
                    #expect(uri == "/metrics" ? response.headers[.contentLength] != nil : response.headers[.contentLength] == get.1, "HEAD \(uri)")
                }
            }
            for (uri, method, allow) in [("/v1/card", HTTPRequest.Method.get, "POST"), ("/v1/compare", .put, "POST"),
                                         ("/healthz", .post, "GET, HEAD"), ("/v1/templates/og.png", .delete, "GET, HEAD")] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                }
            }
            try await client.execute(uri: "/nowhere", method: .get) { #expect($0.status == .notFound) }
        }
    }

    /// A font key naming an asset that is not a font: the error names the spec's path, never
    /// the server's folder.
    @Test func errorsShowNoServerPath() async throws {
        let fixture = try ServeFixture()
        let assets = fixture.settings.assets!
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: assets).appendingPathComponent("x.ttf"))
        let spec = ByteBuffer(string: ##"{"blocks": [{"type": "text", "text": "a", "font": "x.ttf"}]}"##)
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: spec) { response in
                #expect(response.status == .unprocessableContent)
                let text = String(buffer: response.body)
                #expect(text.contains("x.ttf") && !text.contains(assets) && !text.contains(fixture.root.path), "\(text)")
            }
        }
    }

    /// Fault 11: a FIFO in the assets folder used as a picture is refused at once (opened
    /// without blocking, then found not to be a regular file); it never holds a render slot.
    @Test func aFIFOAssetIsRefusedWithoutBlocking() async throws {
        let fixture = try ServeFixture()
        let fifo = fixture.settings.assets! + "/pipe.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        let spec = ByteBuffer(string: ##"{"size": "200x100", "padding": 8, "blocks": [{"type": "image", "src": "pipe.png", "width": 40}]}"##)
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: spec) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("pipe.png"), "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { #expect($0.status == .ok) }
        }
    }
}
#endif
