import Prometheus

/// The service's Prometheus metrics: requests by route and status, render latency, queue
/// depth and renders in flight, cache hits and misses.
final class ServeMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let renderSeconds: DurationHistogram
    let queueDepth: Gauge
    let inFlight: Gauge
    let cacheHits: Counter
    let cacheMisses: Counter
    let cacheBytes: Gauge
    let memoryReserved: Gauge
    let stuckSlots: Gauge

    init() {
        renderSeconds = registry.makeDurationHistogram(
            name: "hlrender_render_seconds",
            buckets: [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                      .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)],
            help: "Time to render one card, queueing excluded.")
        queueDepth = registry.makeGauge(name: "hlrender_queue_depth", help: "Requests waiting for a render slot.")
        inFlight = registry.makeGauge(name: "hlrender_renders_in_flight", help: "Renders running.")
        cacheHits = registry.makeCounter(name: "hlrender_cache_hits_total", help: "Requests answered from the image cache or with 304.")
        cacheMisses = registry.makeCounter(name: "hlrender_cache_misses_total", help: "Requests that rendered.")
        cacheBytes = registry.makeGauge(name: "hlrender_cache_bytes", help: "Bytes of images in the cache.")
        memoryReserved = registry.makeGauge(name: "hlrender_memory_reserved_bytes", help: "Bytes of the memory budget renders in flight hold.")
        stuckSlots = registry.makeGauge(name: "hlrender_all_slots_stuck", help: "1 while every render slot holds a render past its deadline.")
    }

    func request(route: String, status: Int) {
        registry.makeCounter(name: "hlrender_requests_total", labels: [("route", route), ("status", String(status))],
                             help: "HTTP requests by route and status.").increment()
    }
}
