// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
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
    let connectionsRefused: Counter

    init() {
        renderSeconds = registry.makeDurationHistogram(
            descriptor: named("hlrender_render_seconds", "Time to render one card, queueing excluded."),
            buckets: [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                      .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)])
        queueDepth = registry.makeGauge(descriptor: named("hlrender_queue_depth", "Requests waiting for a render slot."))
        inFlight = registry.makeGauge(descriptor: named("hlrender_renders_in_flight", "Renders running."))
        cacheHits = registry.makeCounter(descriptor: named("hlrender_cache_hits_total", "Requests answered from the image cache or with 304."))
        cacheMisses = registry.makeCounter(descriptor: named("hlrender_cache_misses_total", "Requests that rendered."))
        cacheBytes = registry.makeGauge(descriptor: named("hlrender_cache_bytes", "Bytes of images in the cache."))
        memoryReserved = registry.makeGauge(descriptor: named("hlrender_memory_reserved_bytes", "Bytes of the memory budget renders in flight and bodies being received hold."))
        stuckSlots = registry.makeGauge(descriptor: named("hlrender_all_slots_stuck", "1 while every render slot holds a render past its deadline."))
        connectionsRefused = registry.makeCounter(descriptor: named("hlrender_connections_refused_total", "Connections closed at once because --max-connections were open."))
    }

    func request(route: String, status: Int) {
        registry.makeCounter(descriptor: named("hlrender_requests_total", "HTTP requests by route and status."),
                             labels: [("route", route), ("status", String(status))]).increment()
    }
}

/// A metric's whole name (its unit in it) and help, as Prometheus's descriptor takes them.
private func named(_ name: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
}
#endif
