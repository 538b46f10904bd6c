// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Codecs
import Render
import ServeConfig
import Compare
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import Serve
import TestSupport
import Typeset
import Testing

/// A folder with assets (a PNG, a symlink out of it), a template, and a secret beside it.
struct ServeFixture {
    let root: URL
    var settings = ServeSettings()

    init() throws {
        root = try CLI.scratchFolder()
        let assets = root.appendingPathComponent("assets"), templates = root.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let stripes = Fixtures.repo.appendingPathComponent("Tests/CardTests/Fixtures/stripes.png")
        try FileManager.default.copyItem(at: stripes, to: assets.appendingPathComponent("stripes.png"))
        try Data("top secret".utf8).write(to: root.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(atPath: assets.appendingPathComponent("escape.png").path,
                                                   withDestinationPath: root.appendingPathComponent("secret.png").path)
        try Data(##"{"size": "400x200", "padding": 16, "background": "#223344", "color": "white", "blocks": [{"type": "text", "text": "{{title}}", "size": 32, "anchor": "center"}, {"type": "image", "src": "{{img}}", "width": 40, "anchor": "top-left"}]}"##.utf8)
            .write(to: templates.appendingPathComponent("og.json"))
        settings.assets = assets.path
        settings.templates = templates.path
        settings.concurrency = 2
        settings.queue = 4
        settings.version = "test"
        settings.openCompare = true
        // The service's decoders run in a worker of the hlrender binary, as hlrender-serve's do.
        settings.decoderWorker = CLI.binary
    }

    func app() throws -> some ApplicationProtocol {
        try ServeApp.application(settings, fonts: FontEnvironment(pinnedDirectories: [Fixtures.fonts]))
    }
}

let json: HTTPFields = [.contentType: "application/json"]

func card(_ text: String = "Hello", size: String = "320x160", extra: String = "") -> ByteBuffer {
    ByteBuffer(string: ##"{"size": "\##(size)", "padding": 8, "background": "#FFEEDD", "blocks": [{"type": "text", "text": "\##(text)", "size": 28\##(extra)}]}"##)
}

func body(_ response: TestResponse) -> [UInt8] { Array(response.body.readableBytesView) }

func errorJSON(_ response: TestResponse) throws -> [String: String] {
    try JSONSerialization.jsonObject(with: Data(body(response))) as! [String: String]
}

@Suite struct ServeRouteTests {
    @Test func cardInEveryFormat() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                let image = try PNGCodec.decode(body(response))
                #expect(image.width == 320 && image.height == 160)
            }
            for (accept, magic) in [("image/jpeg", [0xFF, 0xD8]), ("image/webp;q=0.9, text/html", Array("RIFF".utf8)),
                                    ("application/pdf", Array("%PDF".utf8)), ("image/svg+xml", Array("<?xml".utf8)),
                                    ("*/*", [0x89, 0x50])] as [(String, [UInt8])] {
                var headers = json
                headers[.accept] = accept
                try await client.execute(uri: "/v1/card", method: .post, headers: headers, body: card()) { response in
                    #expect(response.status == .ok, "\(accept)")
                    #expect(Array(body(response).prefix(magic.count)) == magic, "\(accept)")
                }
            }
            try await client.execute(uri: "/v1/card?format=webp", method: .post, headers: json, body: card()) { response in
                #expect(response.headers[.contentType] == "image/webp")
            }
            try await client.execute(uri: "/v1/card?format=svg", method: .post, headers: json, body: card()) { response in
                #expect(response.headers[.contentType] == "image/svg+xml")
            }
            try await client.execute(uri: "/v1/card?format=avif", method: .post, headers: json, body: card()) { response in
                #expect(response.headers[.contentType] == "image/avif")
                #expect(Array(try body(response).dropFirst(4).prefix(8)) == Array("ftypavif".utf8))
            }
            var html = json
            html[.accept] = "text/html"
            try await client.execute(uri: "/v1/card", method: .post, headers: html, body: card()) { response in
                #expect(response.status == .notAcceptable)
            }
            try await client.execute(uri: "/v1/card?format=gif", method: .post, headers: json, body: card()) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// The encoder options are the CLI's, by the same names and checks: the bytes and the ETag
    /// follow them, and a bad value is a 422 naming the field.
    @Test func encoderOptionsFromTheQuery() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            var seen: [(Int, String)] = []
            for query in ["format=jpeg", "format=jpeg&quality=40", "format=png&png-compression=small"] {
                try await client.execute(uri: "/v1/card?\(query)", method: .post, headers: json, body: card()) { response in
                    #expect(response.status == .ok, "\(query)")
                    seen.append((body(response).count, response.headers[.eTag] ?? ""))
                }
            }
            #expect(seen[1].0 < seen[0].0, "quality 40 makes a smaller JPEG than 90")
            #expect(Set(seen.map(\.1)).count == 3, "each setting has its own ETag")
            for (query, field) in [("format=jpeg&quality=0", "quality"), ("format=png&png-compression=tiny", "png-compression"),
                                   ("format=webp&lossless=maybe", "lossless")] {
                try await client.execute(uri: "/v1/card?\(query)", method: .post, headers: json, body: card()) { response in
                    #expect(response.status == .unprocessableContent, "\(query)")
                    let error = try errorJSON(response)
                    #expect(error["path"] == field, "\(query)")
                }
            }
        }
    }

    @Test func templatesFromQueryParameters() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/templates/og.png?title=Hello+world%21&img=stripes.png", method: .get) { response in
                #expect(response.status == .ok)
                let image = try PNGCodec.decode(body(response))
                #expect(image.width == 400 && image.height == 200)
            }
            try await client.execute(uri: "/v1/templates/og.jpg?title=x&img=stripes.png", method: .get) { response in
                #expect(response.headers[.contentType] == "image/jpeg")
            }
            for uri in ["/v1/templates/missing.png", "/v1/templates/og.gif", "/v1/templates/..%2f..%2fetc%2fpasswd.png"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
            // A variable the template uses but the URL lacks: 422 naming where.
            try await client.execute(uri: "/v1/templates/og.png?title=x", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                let error = try errorJSON(response)
                #expect(error["path"] == "blocks[1].src", "\(error)")
                // Told as a query parameter (the service has no --var).
                #expect(error.values.contains { $0.contains("query parameter img=") } && !error.values.contains { $0.contains("--var") },
                        "\(error)")
            }
            // A value is filled once: its own {{x}} is text, not a variable the URL lacks.
            try await client.execute(uri: "/v1/templates/og.png?title=%7B%7Bx%7D%7D&img=stripes.png", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/templates/og.png?title=%ZZ", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func etagsAnd304() async throws {
        let fixture = try ServeFixture()
        try await fixture.app().test(.router) { client in
            let etag = try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { response in
                #expect(response.headers[.cacheControl] == "public, max-age=3600")
                return response.headers[.eTag]
            }
            #expect(etag?.hasPrefix("\"") == true && etag?.count == 34)
            var conditional = json
            conditional[.ifNoneMatch] = etag
            try await client.execute(uri: "/v1/card", method: .post, headers: conditional, body: card()) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == etag)
            }
            // Another spec, another tag; a key order change is the same spec.
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card("Other")) { response in
                #expect(response.headers[.eTag] != etag)
            }
            let reordered = ByteBuffer(string: ##"{"padding": 8, "size": "320x160", "blocks": [{"size": 28, "text": "Hello", "type": "text"}], "background": "#FFEEDD"}"##)
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: reordered) { response in
                #expect(response.headers[.eTag] == etag)
            }
            let metrics = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            #expect(metrics.contains("hlrender_cache_hits_total 2"), "\(metrics)")
        }
    }

    @Test func cacheIsBoundedAndNoCacheRendersAnew() async throws {
        var fixture = try ServeFixture()
        // Room for about two of these cards.
        let one = try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card("A")) { $0.body.readableBytes }
        }
        // Half of --cache-mb is the rendered images' (the rest: decoded pictures, backgrounds).
        fixture.settings.cacheBytes = one * 5
        let limit = fixture.settings.renderedCacheBytes
        try await fixture.app().test(.router) { client in
            for text in ["A", "B", "C", "A"] {
                try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card(text)) { #expect($0.status == .ok) }
            }
            var fresh = json
            fresh[.cacheControl] = "no-cache"
            try await client.execute(uri: "/v1/card", method: .post, headers: fresh, body: card("A")) { #expect($0.status == .ok) }
            let metrics = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            // A was evicted by C (least recently used), so all five rendered.
            #expect(metrics.contains("hlrender_cache_misses_total 5"), "\(metrics)")
            let bytes = metrics.split(separator: "\n").first { $0.hasPrefix("hlrender_cache_bytes ") }
                .flatMap { Double($0.split(separator: " ")[1]) } ?? -1
            #expect(bytes > 0 && bytes <= Double(limit), "cache holds \(bytes) bytes, limit \(limit)")
        }
    }

    @Test func badRequestsGetJSONErrors() async throws {
        var fixture = try ServeFixture()
        fixture.settings.maxBody = 4096
        let root = fixture.root.path
        try await fixture.app().test(.router) { client in
            let cases: [(HTTPFields, ByteBuffer, HTTPResponse.Status, String?)] = [
                (json, ByteBuffer(string: "{\"size\": "), .badRequest, nil),
                (json, ByteBuffer(string: "[1, 2]"), .unprocessableContent, nil),
                ([.contentType: "text/plain"], card(), .unsupportedMediaType, nil),
                (json, ByteBuffer(string: String(repeating: " ", count: 5000) + "{}"), .contentTooLarge, nil),
                (json, card(extra: ", \"width\": -3"), .unprocessableContent, "blocks[0].width"),
                (json, card(size: "99999x99999"), .unprocessableContent, nil),
                (json, card(size: "40000x10"), .unprocessableContent, nil),
            ]
            for (headers, requestBody, status, path) in cases {
                try await client.execute(uri: "/v1/card", method: .post, headers: headers, body: requestBody) { response in
                    #expect(response.status == status)
                    #expect(response.headers[.contentType] == "application/json")
                    let error = try errorJSON(response)
                    #expect(error["error"]?.isEmpty == false)
                    if let path { #expect(error["path"] == path, "\(error)") }
                    #expect(!String(buffer: response.body).contains(root), "a server path leaked")
                    // The service has no flags: library errors must not tell a client to lower --size.
                    #expect(!String(buffer: response.body).contains(" --"), "a CLI flag in \(error)")
                }
            }
            // Still serving.
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { #expect($0.status == .ok) }
        }
    }

    /// No file outside the assets folder, by any spelling.
    @Test func traversalIsRefused() async throws {
        let fixture = try ServeFixture()
        let root = fixture.root
        try await fixture.app().test(.router) { client in
            let image = { (src: String) in ByteBuffer(string: ##"{"size": "200x100", "padding": 8, "blocks": [{"type": "image", "src": "\##(src)", "width": 50}]}"##) }
            for src in ["../secret.png", root.appendingPathComponent("secret.png").path, "escape.png",
                        "http://example.com/a.png", "file:///etc/hostname", "sub/../../secret.png", "%2e%2e/secret.png"] {
                try await client.execute(uri: "/v1/card", method: .post, headers: json, body: image(src)) { response in
                    #expect(response.status == .unprocessableContent, "\(src)")
                    let error = try errorJSON(response)
                    #expect(error["path"] == "blocks[0].src", "\(src): \(error)")
                    #expect(!String(buffer: response.body).contains(root.path), "\(src): a server path leaked")
                }
            }
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: image("stripes.png")) { #expect($0.status == .ok) }
            // A font outside, and a template variable percent-encoding '..'.
            try await client.execute(uri: "/v1/card", method: .post, headers: json,
                                     body: card(extra: ", \"font\": \"/etc/hostname\"")) { response in
                #expect(response.status == .unprocessableContent)
            }
            try await client.execute(uri: "/v1/templates/og.png?title=x&img=%2e%2e%2fsecret.png", method: .get) { response in
                #expect(response.status == .unprocessableContent)
            }
        }
    }

    @Test func compareTwoPNGs() async throws {
        let fixture = try ServeFixture()
        let a = try PNGCodec.encode(RGBAImage(width: 8, height: 8, fill: (255, 0, 0, 255)))
        var bImage = RGBAImage(width: 8, height: 8, fill: (255, 0, 0, 255))
        bImage[3, 3] = (0, 0, 255, 255)
        let b = try PNGCodec.encode(bImage)
        @Sendable func form(_ parts: [(String, [UInt8])]) -> (HTTPFields, ByteBuffer) {
            var bytes: [UInt8] = []
            for (name, content) in parts {
                bytes += Array("--XyZ\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name).png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
                bytes += content + Array("\r\n".utf8)
            }
            bytes += Array("--XyZ--\r\n".utf8)
            return ([.contentType: "multipart/form-data; boundary=XyZ"], ByteBuffer(bytes: bytes))
        }
        try await fixture.app().test(.router) { client in
            let (h1, b1) = form([("expected", a), ("actual", a)])
            try await client.execute(uri: "/v1/compare", method: .post, headers: h1, body: b1) { response in
                let report = try JSONSerialization.jsonObject(with: Data(body(response))) as! [String: Any]
                #expect(report["result"] as? String == "match" && report["identical"] as? Bool == true)
            }
            let (h2, b2) = form([("expected", a), ("actual", b)])
            try await client.execute(uri: "/v1/compare", method: .post, headers: h2, body: b2) { response in
                let report = try JSONSerialization.jsonObject(with: Data(body(response))) as! [String: Any]
                #expect(report["result"] as? String == "differ" && report["different_pixels"] as? Int == 1)
            }
            // The comparison options by the CLI's names: a limit lets the one pixel pass; a
            // value out of range (or too big for an Int) is a 422 naming the field.
            let (h5, b5) = form([("expected", a), ("actual", b), ("max-diff-pixels", Array("5".utf8))])
            try await client.execute(uri: "/v1/compare", method: .post, headers: h5, body: b5) { response in
                let report = try JSONSerialization.jsonObject(with: Data(body(response))) as! [String: Any]
                #expect(report["result"] as? String == "match" && report["different_pixels"] as? Int == 1)
            }
            for (field, value) in [("max-diff-pixels", "1e300"), ("threshold", "2"), ("count-aa", "7"), ("max-diff-ratio", "x")] {
                let (h6, b6) = form([("expected", a), ("actual", b), (field, Array(value.utf8))])
                try await client.execute(uri: "/v1/compare", method: .post, headers: h6, body: b6) { response in
                    #expect(response.status == .unprocessableContent, "\(field)=\(value)")
                    let error = try errorJSON(response)
                    #expect(error["path"] == field)
                }
            }
            let (h3, b3) = form([("expected", a)])
            try await client.execute(uri: "/v1/compare", method: .post, headers: h3, body: b3) { #expect($0.status == .unprocessableContent) }
            let (h4, b4) = form([("expected", a), ("actual", Array("not a png".utf8))])
            try await client.execute(uri: "/v1/compare", method: .post, headers: h4, body: b4) { response in
                #expect(response.status == .unprocessableContent)
                let error = try errorJSON(response)
                #expect(error["path"] == "actual")
            }
            try await client.execute(uri: "/v1/compare", method: .post, headers: json, body: card()) { #expect($0.status == .unsupportedMediaType) }
            // Two PDFs: pages, words and links (GoldensTests' fixtures), or a 422 naming the side.
            let pdfs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("GoldensTests/Fixtures/pdf")
            let e = [UInt8](try Data(contentsOf: pdfs.appendingPathComponent("expected.pdf")))
            let ac = [UInt8](try Data(contentsOf: pdfs.appendingPathComponent("actual.pdf")))
            let (h7, b7) = form([("expected", e), ("actual", ac), ("dpi", Array("36".utf8))])
            try await client.execute(uri: "/v1/compare", method: .post, headers: h7, body: b7) { response in
                #expect(response.status == .ok)
                let report = try JSONSerialization.jsonObject(with: Data(body(response))) as! [String: Any]
                let pages = (report["pages"] as? [[String: Any]])?.compactMap { $0["page"] as? Int }
                #expect(report["result"] as? String == "differ" && pages == [12, 37, 101] && report["dpi"] as? Int == 36)
            }
            let (h8, b8) = form([("expected", e), ("actual", Array("%PDF-1.4 broken".utf8))])
            try await client.execute(uri: "/v1/compare", method: .post, headers: h8, body: b8) { response in
                #expect(response.status == .unprocessableContent)
                let error = try errorJSON(response)
                #expect(error["path"] == "actual")
            }
        }
    }

    /// A spec with effects is answered as an animated WebP (or APNG, or AVIF); ?animate=0 gives the
    /// still card, ?animate=1 where the format cannot move is 406, a bad value 400.
    @Test func animatedCards() async throws {
        let moving = ByteBuffer(string: ##"{"size": "320x160", "fps": 10, "blocks": [{"type": "text", "text": "Hi", "size": 28, "animation": "fade"}]}"##)
        try await ServeFixture().app().test(.router) { client in
            var webp = json
            webp[.accept] = "image/webp"
            let animated = try await client.execute(uri: "/v1/card", method: .post, headers: webp, body: moving) { body($0) }
            // RIFF....WEBPVP8X with the animation flag (bit 1 of the flags byte) and an ANIM chunk.
            #expect(animated.count > 30 && (animated[20] & 0x02) != 0, "not an animated WebP")
            #expect(String(decoding: animated, as: UTF8.self).contains("ANIM"))
            let still = try await client.execute(uri: "/v1/card?animate=0", method: .post, headers: webp, body: moving) { body($0) }
            #expect(!String(decoding: still, as: UTF8.self).contains("ANIM"))
            var png = json
            png[.accept] = "image/png"
            let apng = try await client.execute(uri: "/v1/card", method: .post, headers: png, body: moving) { body($0) }
            #expect(String(decoding: apng, as: UTF8.self).contains("acTL"))
            // An AVIF image sequence: its file type box's brand is 'avis' (a still one is 'avif').
            var avif = json
            avif[.accept] = "image/avif"
            let sequence = try await client.execute(uri: "/v1/card", method: .post, headers: avif, body: moving) { body($0) }
            #expect(String(decoding: sequence.prefix(12), as: UTF8.self).hasSuffix("ftypavis"), "not an AVIF sequence")
            let stillAVIF = try await client.execute(uri: "/v1/card?animate=0", method: .post, headers: avif, body: moving) { body($0) }
            #expect(String(decoding: stillAVIF.prefix(12), as: UTF8.self).hasSuffix("ftypavif"))
            var jpeg = json
            jpeg[.accept] = "image/jpeg"
            try await client.execute(uri: "/v1/card?animate=1", method: .post, headers: jpeg, body: moving) { #expect($0.status == .notAcceptable) }
            try await client.execute(uri: "/v1/card?animate=yes", method: .post, headers: webp, body: moving) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/v1/card?animate=1", method: .post, headers: webp, body: card()) { #expect($0.status == .unprocessableContent) }
            // Bad effects are 422 with the JSON path.
            let bad = ByteBuffer(string: ##"{"blocks": [{"type": "text", "text": "Hi", "animation": {"effect": "spin"}}]}"##)
            try await client.execute(uri: "/v1/card", method: .post, headers: webp, body: bad) { response in
                #expect(response.status == .unprocessableContent)
                let error = try errorJSON(response)
                #expect(error["path"] == "blocks[0].animation.effect", "\(error)")
            }
        }
    }

    @Test func tokenHealthAndMetrics() async throws {
        var fixture = try ServeFixture()
        fixture.settings.token = "s3cret"
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { response in
                #expect(response.status == .unauthorized && response.headers[.wwwAuthenticate] == "Bearer")
            }
            var authorized = json
            authorized[.authorization] = "Bearer s3cret"
            try await client.execute(uri: "/v1/card", method: .post, headers: authorized, body: card()) { #expect($0.status == .ok) }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/templates/og.png?title=t&img=stripes.png", method: .get) { #expect($0.status == .ok) }
            let metrics = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            for line in [##"hlrender_requests_total{route="/v1/card",status="401"} 1"##, ##"hlrender_requests_total{route="/v1/card",status="200"} 1"##,
                         "hlrender_render_seconds_count 2", "hlrender_queue_depth 0"] {
                #expect(metrics.contains(line), "\(line)")
            }
        }
    }

    /// One render slot, no queue: a request while a render holds the slot is turned away at
    /// once with Retry-After. The slot is held through the app's own gate until the answer has
    /// come, so the scheduler cannot let the held render end first (a heavy card as the holder
    /// was a race under full-suite load).
    @Test func overloadAnswers503AtOnce() async throws {
        var fixture = try ServeFixture()
        fixture.settings.concurrency = 1
        fixture.settings.queue = 0
        let gate = RenderGate(limit: 1, queue: 0)
        let release = DispatchSemaphore(value: 0)
        // Whatever fails below, the holder ends.
        defer { release.signal() }
        let holder = Task { try await gate.run(timeout: longEnough) { _ in release.wait(); return 1 } }
        while gate.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        try await ServeApp.application(fixture.settings, fonts: FontEnvironment(pinnedDirectories: [Fixtures.fonts]), gate: gate)
            .test(.router) { client in
                let refused = try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { ($0.status, $0.headers[.retryAfter]) }
                #expect(refused.0 == .serviceUnavailable && refused.1 == "1", "\(refused)")
                release.signal()
                #expect(try await holder.value == 1)
                try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card()) { #expect($0.status == .ok) }
            }
    }

    @Test func slowRendersTimeOut() async throws {
        var fixture = try ServeFixture()
        fixture.settings.timeoutMilliseconds = 1
        try await fixture.app().test(.router) { client in
            try await client.execute(uri: "/v1/card", method: .post, headers: json, body: card(size: "2000x2000")) { response in
                #expect(response.status == .serviceUnavailable)
                let error = try errorJSON(response)
                #expect(error["error"]?.contains("longer than 1 ms") == true)
            }
        }
    }
}
#endif
