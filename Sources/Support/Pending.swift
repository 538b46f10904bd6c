import Dispatch

/// A value made on another core while the caller goes on (the next chunk of a long text, a
/// golden suite's record while its rows are read): `value()` waits for it and throws its error.
package final class Pending<Value: Sendable>: @unchecked Sendable {
    // Written before the signal, read after the wait: the semaphore orders the two.
    private var result: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on Dispatch's pool.
    package init(_ work: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global().async { [self] in
            result = Result { try work() }
            done.signal()
        }
    }

    /// The value, once made (a second call returns at once).
    package func value() throws -> Value {
        done.wait()
        done.signal()
        return try result!.get()
    }
}
