import CPNGCodec
import Glibc

/// The other core's thread in a one-shot render (see `RenderOptions.oneShot`): tasks run one after another,
/// in the order given, on one thread started on first use and never stopped (the process exits
/// after its render). A plain thread started on the other CPU (see Threads.c) rather than
/// Dispatch's pool, whose first task started 0.2-3 ms late: as long as the tasks themselves.
final class HelperThread: @unchecked Sendable {
    static let shared = HelperThread()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var queue: [() -> Void] = []
    private var submitted = 0, finished = 0, started = false

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    /// Queues `task` and returns its number, for `wait(for:)`. Where no thread can be started,
    /// the task runs at once on the caller's.
    @discardableResult
    func submit(_ task: @escaping () -> Void) -> Int {
        pthread_mutex_lock(mutex)
        if !started { started = startThread() }
        guard started else {
            pthread_mutex_unlock(mutex)
            task()
            pthread_mutex_lock(mutex)
            submitted += 1
            finished += 1
            let number = submitted
            pthread_mutex_unlock(mutex)
            return number
        }
        queue.append(task)
        submitted += 1
        let number = submitted
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        return number
    }

    /// Blocks until task `number` (and every task before it) has run.
    func wait(for number: Int) {
        pthread_mutex_lock(mutex)
        while finished < number { pthread_cond_wait(changed, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Called under the lock.
    private func startThread() -> Bool {
        let this = Unmanaged.passUnretained(self).toOpaque()
        var thread = pthread_t()
        guard hl_thread_start_elsewhere(&thread, { this in
            Unmanaged<HelperThread>.fromOpaque(this!).takeUnretainedValue().serve()
        }, this) == 0 else { return false }
        pthread_detach(thread)
        return true
    }

    private func serve() -> Never {
        pthread_mutex_lock(mutex)
        while true {
            while queue.isEmpty { pthread_cond_wait(changed, mutex) }
            let task = queue.removeFirst()
            pthread_mutex_unlock(mutex)
            task()
            pthread_mutex_lock(mutex)
            finished += 1
            pthread_cond_broadcast(changed)
        }
    }
}
