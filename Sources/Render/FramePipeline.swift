import CCairo
import Dispatch
import Synchronization

/// Hands drawn frames to an encoder on another thread, in order, while the next frame is drawn
/// on the caller's: two canvases take turns, and a canvas is drawn again only once the encoder
/// has read it. The encoder and the canvases are used by one thread at a time (the semaphores
/// order them), which is what `@unchecked Sendable` promises here.
final class FramePipeline: @unchecked Sendable {
    private let encoder: FrameEncoder
    private let queue = DispatchQueue(label: "hlrender.animation.encode")
    private let failure = Mutex<(any Error)?>(nil)
    /// One per canvas of the turn: signalled when the encoder is done reading it.
    private let free = [DispatchSemaphore(value: 1), DispatchSemaphore(value: 1)]
    private let width: Int, height: Int, opaque: Bool

    init(_ encoder: FrameEncoder, width: Int, height: Int, opaque: Bool) {
        (self.encoder, self.width, self.height, self.opaque) = (encoder, width, height, opaque)
    }

    /// Waits until canvas `turn` (0 or 1) may be drawn on, and says whether encoding failed.
    func acquire(_ turn: Int) throws {
        free[turn].wait()
        if let error = failure.withLock({ $0 }) {
            free[turn].signal()
            throw error
        }
    }

    /// Queues `canvas` (drawn for turn `turn`, or nil for a canvas never drawn again) to be
    /// encoded as the next frame.
    func add(_ canvas: Canvas, turn: Int?) {
        cairo_surface_flush(canvas.surface)
        // The canvas is not drawn on again until `free[turn]` is signalled (or ever, for nil).
        nonisolated(unsafe) let canvas = canvas
        queue.async { [self] in
            defer { if let turn { free[turn].signal() } }
            guard failure.withLock({ $0 == nil }) else { return }
            do {
                try encoder.add(FramePixels(data: cairo_image_surface_get_data(canvas.surface), width: width, height: height,
                                            stride: Int(cairo_image_surface_get_stride(canvas.surface)), opaque: opaque))
            } catch {
                failure.withLock { $0 = error }
            }
        }
    }

    /// The frame before shows a frame time longer.
    func extend() {
        queue.async { [self] in
            guard failure.withLock({ $0 == nil }) else { return }
            do { try encoder.extend() } catch { failure.withLock { $0 = error } }
        }
    }

    /// Waits for every queued frame, then the encoded file (or the first error).
    func finish() throws -> [UInt8] {
        queue.sync {}
        if let error = failure.withLock({ $0 }) { throw error }
        return try encoder.finish()
    }

    /// Waits for what is queued (an error elsewhere ends the animation; the canvases must
    /// outlive the encoder's reads).
    func drain() { queue.sync {} }
}
