import CPNGCodec
import Glibc

/// The other core's thread in a one-shot render (see `RenderOptions.oneShot`), owned by the
/// `FontContext` made for that render: tasks run one after another, in the order given, on one
/// thread started on first use and stopped when its owner closes it (two contexts in one
/// process have a thread each and share nothing). A plain thread started on the other CPU (see
/// Threads.c) rather than Dispatch's pool, whose first task started 0.2-3 ms late: as long as
/// the tasks themselves. The thread holds the object until it has stopped, so closing never
/// waits (a task may drop the owner's last reference and close it from the thread itself).
final class HelperThread: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var queue: [() -> Void] = []
    private var submitted = 0, finished = 0, started = false, closed = false

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Queues `task` and returns its number, for `wait(for:)`. Where no thread can be started
    /// (or the helper is closed), the task runs at once on the caller's.
    @discardableResult
    func submit(_ task: @escaping () -> Void) -> Int {
        pthread_mutex_lock(mutex)
        if !started && !closed { started = startThread() }
        guard started && !closed else {
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

    /// Lets the thread end once the tasks queued have run; later tasks run on their caller's
    /// thread. Returns at once.
    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// Called under the lock. The thread holds a reference until it ends.
    private func startThread() -> Bool { DetachedThread.start { [self] in serve() } }

    private func serve() {
        pthread_mutex_lock(mutex)
        while true {
            while queue.isEmpty && !closed { pthread_cond_wait(changed, mutex) }
            guard !queue.isEmpty else { break }
            var task: (() -> Void)? = queue.removeFirst()
            pthread_mutex_unlock(mutex)
            task?()
            // Dropped before the lock is taken again: what it held may be the owner's last
            // reference, whose release closes this helper (which takes the lock).
            task = nil
            pthread_mutex_lock(mutex)
            finished += 1
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(mutex)
    }
}

/// A plain thread running one closure, started on the idle CPU (see Threads.c) and detached:
/// it holds what the closure captures until the closure returns.
package enum DetachedThread {
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread; false when none could be started (nothing ran).
    package static func start(_ body: @escaping () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        guard hl_thread_start_elsewhere(&thread, { box in
            Unmanaged<Body>.fromOpaque(box!).takeRetainedValue().run()
            return nil
        }, box) == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
