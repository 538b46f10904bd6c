import Dispatch
import Support

/// Runs a streamed file's last steps (the PDF filter, the annotation scan, the write) on a
/// thread of their own, in the order they are sent, while the sending thread goes on drawing:
/// Cairo's next page and the delivery of the last one overlap. At most `depth` steps wait, so
/// memory stays a few buffers. A failed step fails every step after it and every later `send`.
final class SinkWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "hlrender.stream-writer")
    private let room: DispatchSemaphore
    private let lock = Lock()
    private var failed = false

    init(depth: Int = 3) { room = DispatchSemaphore(value: depth) }

    /// Queues `step` (true when it succeeded); false, with nothing queued, once a step failed.
    func send(_ step: @escaping @Sendable () -> Bool) -> Bool {
        guard !hasFailed else { return false }
        room.wait()
        queue.async { [self] in
            if !hasFailed, !step() { lock.withLock { failed = true } }
            room.signal()
        }
        return true
    }

    /// Waits until every queued step has run; false when one failed.
    func drain() -> Bool {
        queue.sync {}
        return !hasFailed
    }

    private var hasFailed: Bool { lock.withLock { failed } }
}
