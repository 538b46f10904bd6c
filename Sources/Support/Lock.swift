import Synchronization

/// A mutex for the caches of otherwise immutable, shareable objects: Synchronization's Mutex,
/// held by a class so the lock has one stable address however the owner is copied.
public final class Lock: Sendable {
    private let mutex = Mutex<Void>(())
    public init() {}

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try mutex.withLock { _ in try body() }
    }
}
