import Card
import Render
import Support
import Testing

/// What an animation reserves from a request's memory budget before it draws (the service
/// gives every job a lease of its budget).
@Suite struct AnimationMemoryTests {
    /// An AVIF image sequence reserves what aom holds looking ahead over frames besides the
    /// canvases every animation keeps: at least 40 bytes a pixel more than the same card as
    /// WebP (peak RSS measured 24-33 above WebP for 4:2:0), 72 for 4:4:4.
    @Test func anAVIFSequenceReservesItsEncodersFrames() throws {
        let spec = try engine.parse(try JSONValue.parse(Array(#"{"size": "200x100", "padding": 10, "fps": 10, "blocks": [{"type": "text", "text": "Hi", "animation": "fade"}]}"#.utf8)),
                                    variables: [:], folder: ".")
        func reserved(_ container: AnimationFormat, chroma444: Bool = false) throws -> Int {
            let budget = MemoryBudget(bytes: 1 << 30)
            var job = Job(format: container == .apng ? .png : container == .avif ? .avif : .webp)
            if chroma444 { try EncodeOptions.options.named("avif-chroma")!.apply(.text("444"), to: &job.encoding) }
            let lease = budget.lease()
            job.memory = lease
            _ = try engine.animate(spec, as: container, job: job)
            return lease.bytes
        }
        let webp = try reserved(.webp)
        #expect(try reserved(.avif) - webp >= 40 * 200 * 100)
        #expect(try reserved(.avif, chroma444: true) - webp >= 72 * 200 * 100)
        #expect(try reserved(.apng) == webp)
    }
}
