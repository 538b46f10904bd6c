import Synchronization

/// A mutex for the caches of otherwise immutable, shareable objects: Synchronization's Mutex,
/// held by a class so the lock has one stable address however the owner is copied.
package final class Lock: Sendable {
    private let mutex = Mutex<Void>(())
    package init() {}

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try mutex.withLock { _ in try body() }
    }
}
