import Support

extension ServeSettings {
    /// The service's options, defined once: `hlrender serve`'s flags parse and check through
    /// these rows, and docs/OPTIONS.md lists them.
    package static let options: [OptionDefinition<ServeSettings>] = [
        OptionDefinition("host", "address", schema: "string", "Address to listen on (default 127.0.0.1).") {
            let text = try $1.string()
            guard !text.trimmed.isEmpty else { throw OptionError("is empty") }
            $0.host = text
        },
        OptionDefinition("port", "n", schema: "integer", "Port to listen on, 0 to 65535 (0: any free port; default 8080).") {
            $0.port = try $1.integer(in: 0...65535)
        },
        OptionDefinition("templates", "dir", schema: "string", "Card templates (NAME.json) for GET /v1/templates/NAME.png?var=value.") {
            $0.templates = try $1.string()
        },
        OptionDefinition("assets", "dir", schema: "string", "The only folder a request may read images and fonts from; relative paths resolve here.") {
            $0.assets = try $1.string()
        },
        OptionDefinition("max-age", "s", schema: "integer", "Cache-Control max-age of rendered images, in seconds (default 3600).") {
            $0.maxAge = try $1.integer(in: 0...31_536_000)
        },
        OptionDefinition("cache-mb", "mb", schema: "integer", "Megabytes every cache the service keeps may hold: half for rendered images, a quarter each for decoded pictures and drawn backgrounds (0: no caches; default 256).") {
            $0.cacheBytes = try $1.integer(in: 0...(1 << 20)) << 20
        },
        OptionDefinition("max-body", "bytes", schema: "integer", "Largest request body in bytes (default 1 MiB).") {
            $0.maxBody = try $1.integer(in: 1...(1 << 30))
        },
        OptionDefinition("max-connections", "n", schema: "integer", "Connections open at once; past it a new one is closed before it is read (default 512: with NIO's read buffers, ~190 MB at most while every client floods).") {
            $0.maxConnections = try $1.integer(in: 1...1_000_000)
        },
        PixelLimit.maxPixelsRow.within(\.pixelLimit, help: "Largest canvas in output pixels (default 40,000,000)."),
        LinkSchemes.linkSchemesRow.within(\.linkSchemes),
        OptionDefinition("concurrency", "n", schema: "integer", "Renders at once (default: the number of cores).") {
            $0.concurrency = try $1.integer(in: 1...1024)
        },
        OptionDefinition("queue", "n", schema: "integer", "Requests that may wait for a render; past that 503 with Retry-After (default 8 per render).") {
            $0.queue = try $1.integer(in: 0...100_000)
        },
        OptionDefinition("memory-mb", "mb", schema: "integer", "Megabytes the renders in flight (queued ones included) and the request bodies being received (at most a quarter) may hold together; past it 503, a request that could never fit 413 (default: a cgroup's memory limit less the cache and 160 MB, else 512).") {
            $0.memoryBytes = try $1.integer(in: 16...(1 << 22)) << 20
        },
        OptionDefinition("timeout-ms", "ms", schema: "integer", "Milliseconds a request may wait and render before it gets 503; its render is then cancelled (default 10000).") {
            $0.timeoutMilliseconds = try $1.integer(in: 1...3_600_000)
        },
        OptionDefinition("read-timeout-ms", "ms", schema: "integer", "Milliseconds a client may stay silent while sending a request, and may take for a whole body (default 10000); past that the connection is closed (408 for a slow body).") {
            $0.readTimeoutMilliseconds = try $1.integer(in: 100...3_600_000)
        },
        OptionDefinition("etag-secret-file", "path", schema: "string", "A file whose bytes (at least 16) key the ETags, so replicas behind one load balancer agree (default: a random key per process).") {
            let bytes = try ServeSettings.secret(try $1.string(), what: "secret file", minimum: 16)
            $0.etagKey = bytes
        },
        OptionDefinition("url-signing-key-file", "path", schema: "string", "A file whose bytes (at least 16; a trailing line break is dropped) key the template URLs' signatures: a GET needs sig=HMAC-SHA256(key, path?query without sig), in hex, or gets 403.") {
            var bytes = try ServeSettings.secret(try $1.string(), what: "key file", minimum: 16)
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            guard bytes.count >= 16 else { throw OptionError("the key is shorter than 16 bytes") }
            $0.urlSigningKey = bytes
        },
        OptionDefinition("token-file", "path", schema: "string", "A file holding the bearer token the POST routes require.") {
            let path = try $1.string()
            let bytes = try ServeSettings.secret(path, what: "token file", minimum: 1)
            let token = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map { String($0).trimmed } ?? ""
            guard !token.isEmpty else { throw OptionError("'\(path)' is empty") }
            $0.token = token
        },
        OptionDefinition("font-dir", "dir", schema: "string", "A folder of fonts to load before the pinned ones (repeatable).") {
            $0.fontDirectories.append(try $1.string())
        },
        OptionDefinition("slowest-avif-speed", "0-10", schema: "integer", "The lowest avif-speed a request may ask: slower AVIF encoding holds a render slot longer and cannot be cancelled (default 8, the CLI's default; a lower ask gets 422).") {
            $0.slowestAVIFSpeed = try $1.integer(in: 0...10)
        },
        OptionDefinition("open-compare", "bool", schema: "boolean", "Let POST /v1/compare run without --token-file: it hands the request's PDFs and images to poppler and the image decoders (default: refused with 403 unless a token is set).") {
            $0.openCompare = try $1.bool()
        },
        OptionDefinition("system-fonts", "bool", schema: "boolean", "Also use the system's fonts (off: renders depend only on the pinned fonts and --font-dir).") {
            $0.systemFonts = try $1.bool()
        },
        OptionDefinition("font-strict", "bool", schema: "boolean", "With --system-fonts, refuse (422) a font family that is not installed instead of drawing Fontconfig's substitute.") {
            $0.fontStrict = try $1.bool()
        },
    ]

    /// A small file's bytes (a token, a key): a regular file, at most 4 KiB.
    private static func secret(_ path: String, what: String, minimum: Int) throws -> [UInt8] {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try Posix.readFile(path, as: what, limit: 4096)
        } catch {
            throw OptionError("\(error.subject): \(error.reason)")
        }
        guard bytes.count >= minimum else {
            throw OptionError(minimum == 1 ? "'\(path)' is empty" : "'\(path)' holds \(bytes.count) bytes; a key needs at least \(minimum)")
        }
        return bytes
    }
}
