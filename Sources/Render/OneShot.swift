import CPNGCodec

/// How a process uses memory. A command that renders one image and exits maps its canvas and
/// encoder buffers in huge pages (a few page faults instead of thousands, ~2 ms of a 20 ms
/// run) and deflates a large PNG on two threads; batches and the service keep the allocator's
/// reuse between images and their cores busy with other images. Call before
/// rendering; never from a long-running process.
package enum OneShot {
    package static func declare() { hl_codec_one_shot() }

    /// Whether `declare` was called: the other core is then free for this render's helpers
    /// (opening faces during layout, rasterising glyphs, the PNG's second band).
    package static var isDeclared: Bool { hl_codec_is_one_shot() != 0 }
}
