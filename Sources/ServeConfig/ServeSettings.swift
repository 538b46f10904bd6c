import Glibc
import Support

/// What the service is started with; the command line fills it (one definition per flag in
/// `hlrender-serve`), the tests build it directly.
package struct ServeSettings: Sendable {
    package var host = "127.0.0.1"
    package var port = 8080
    /// Card templates (`NAME.json`) for `GET /v1/templates/NAME.png`.
    package var templates: String?
    /// The only folder a request may read from: images and fonts; relative paths resolve here.
    package var assets: String?
    /// `Cache-Control: max-age` of rendered images, in seconds.
    package var maxAge = 3600
    /// Bytes every cache the service keeps may hold (`--cache-mb`; 0 turns them off): half
    /// for rendered images (LRU), a quarter for decoded pictures, a quarter for drawn
    /// backgrounds. Nothing is kept outside this and the memory budget.
    package var cacheBytes = 256 << 20
    /// The rendered images' share of `cacheBytes`.
    package var renderedCacheBytes: Int { cacheBytes / 2 }
    /// The decoded pictures' share (a template's photo decoded once for every request).
    package var pictureCacheBytes: Int { cacheBytes / 4 }
    /// The drawn backgrounds' share (a template's gradient or blurred photo).
    package var backgroundCacheBytes: Int { cacheBytes - renderedCacheBytes - pictureCacheBytes }
    /// Largest request body.
    package var maxBody = 1 << 20
    /// Connections open at once; a new one past it is closed unread (each may hold a read
    /// buffer of up to ~370 KB in NIO, outside the body budget).
    package var maxConnections = 512
    /// Largest canvas, in output pixels.
    package var maxPixels: Int {
        get { pixelLimit.pixels }
        set { pixelLimit.pixels = newValue }
    }
    /// The pixel limit (the service's default is lower than a command's).
    package var pixelLimit = PixelLimit(pixels: 40_000_000)
    /// The schemes links in a request's card may use (the operator's `--link-schemes`).
    package var linkSchemes = LinkSchemes()
    /// Renders at once, and requests waiting for one; past that, 503 at once.
    package var concurrency = 2
    package var queue = 16
    /// Bytes the renders in flight (queued ones included) may reserve together; a request
    /// past it gets 503, one that could never fit 413. Nil: `defaultMemoryBytes` of the
    /// `cacheBytes` given.
    package var memoryBytes: Int?
    /// The memory budget in force: the one given, or the default for the caches given.
    package var memoryBudget: Int { memoryBytes ?? ServeSettings.defaultMemoryBytes(cacheBytes: cacheBytes) }
    /// A request still waiting or rendering after this long gets 503; its render is cancelled.
    package var timeoutMilliseconds = 10_000
    /// A client that sends nothing for this long while its request is being read (headers or
    /// body), or takes longer than this for the whole body, is cut off.
    package var readTimeoutMilliseconds = 10_000
    /// The key of the ETags (replicas behind one balancer share it through a file); nil: a
    /// random key per process.
    package var etagKey: [UInt8]?
    /// The key template URLs are signed with (nil: template GETs need no signature).
    package var urlSigningKey: [UInt8]?
    /// Bearer token the POST routes require (nil: none).
    package var token: String?
    /// The slowest AVIF effort a request may ask (`avif-speed` below it gets 422): aom encodes
    /// on one thread and cannot be cancelled, and speed 0 holds a slot for a minute.
    package var slowestAVIFSpeed = 8  // EncodeOptions().avifSpeed, the CLI's default (a test keeps them equal)
    /// The binary that answers `--decode-worker` (the service's own): SVG pictures and compared
    /// PDFs are decoded in a process of it with CPU and memory limits. Nil: in process.
    package var decoderWorker: String?
    /// Whether `POST /v1/compare` runs without a token: it feeds the request's files to
    /// poppler and the image decoders, so by default it needs `token`.
    package var openCompare = false
    /// The clock a signed URL's `exp` is checked against, in Unix seconds (tests set their own).
    package var unixTime: @Sendable () -> Int = { Int(time(nil)) }
    /// Font folders before the pinned ones; system fonts on or off.
    package var fontDirectories: [String] = []
    package var systemFonts = false
    /// A family that is not installed is refused, not substituted.
    package var fontStrict = false
    /// hlrender's version: part of every ETag.
    package var version = "0"

    package init() {}

    /// The default memory budget: under a cgroup memory limit (a systemd unit's MemoryMax, a
    /// container's limit) what is left of it after the image cache and about 160 MB for the
    /// process itself, at least 64 MB; without one 512 MB (the README's unit has MemoryMax=1G).
    package static func defaultMemoryBytes(cacheBytes: Int = 256 << 20, cgroupLimit: Int? = cgroupMemoryLimit()) -> Int {
        guard let limit = cgroupLimit else { return 512 << 20 }
        return max(64 << 20, limit - cacheBytes - (160 << 20))
    }

    /// cgroup v2's memory.max for this process (nil when there is none or it is "max").
    package static func cgroupMemoryLimit() -> Int? {
        guard let membership = try? Posix.readFile("/proc/self/cgroup", as: "cgroup", limit: 4096) else { return nil }
        let line = String(decoding: membership, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("0::") }
        guard let path = line.map({ String($0.dropFirst(3)) }),
              let bytes = try? Posix.readFile("/sys/fs/cgroup" + path + "/memory.max", as: "memory limit", limit: 4096)
        else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self).trimmed)
    }
}
