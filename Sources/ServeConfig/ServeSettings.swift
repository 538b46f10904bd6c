/// What the service is started with; the command line fills it (one definition per flag in
/// `hlrender-serve`), the tests build it directly.
public struct ServeSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Card templates (`NAME.json`) for `GET /v1/templates/NAME.png`.
    public var templates: String?
    /// The only folder a request may read from: images and fonts; relative paths resolve here.
    public var assets: String?
    /// `Cache-Control: max-age` of rendered images, in seconds.
    public var maxAge = 3600
    /// Bytes of rendered images kept in memory (LRU); 0 turns the cache off.
    public var cacheBytes = 256 << 20
    /// Largest request body.
    public var maxBody = 1 << 20
    /// Largest canvas, in output pixels.
    public var maxPixels = 40_000_000
    /// Renders at once, and requests waiting for one; past that, 503 at once.
    public var concurrency = 2
    public var queue = 16
    /// A render taking longer gets 503 (the render finishes, its slot stays taken until then).
    public var timeoutMilliseconds = 10_000
    /// A client that sends nothing for this long while its request is being read (headers or
    /// body), or takes longer than this for the whole body, is cut off.
    public var readTimeoutMilliseconds = 10_000
    /// The key of the ETags (replicas behind one balancer share it through a file); nil: a
    /// random key per process.
    public var etagKey: [UInt8]?
    /// Bearer token the POST routes require (nil: none).
    public var token: String?
    /// Font folders before the pinned ones; system fonts on or off.
    public var fontDirectories: [String] = []
    public var systemFonts = false
    /// hlrender's version: part of every ETag.
    public var version = "0"

    public init() {}
}
