/// A first-in, first-out cache with a fixed number of entries: what it lets go stays alive
/// for as long as something else holds it.
package struct BoundedCache<Key: Hashable, Value> {
    package let limit: Int
    private var values: [Key: Value] = [:]
    private var order: [Key] = []

    package init(limit: Int) { self.limit = max(1, limit) }

    package subscript(key: Key) -> Value? { values[key] }

    package var count: Int { values.count }

    /// Keeps `value` under `key`, and returns what the cache let go to stay within its limit
    /// (the oldest first), for a caller that must free it.
    @discardableResult
    package mutating func insert(_ value: Value, for key: Key) -> [Value] {
        if values.updateValue(value, forKey: key) == nil { order.append(key) }
        var evicted: [Value] = []
        while order.count > limit, let gone = values.removeValue(forKey: order.removeFirst()) {
            evicted.append(gone)
        }
        return evicted
    }

    /// Changes the value under `key` in place, if there is one.
    @discardableResult
    package mutating func update<R>(_ key: Key, _ body: (inout Value) throws -> R) rethrows -> R? {
        guard values[key] != nil else { return nil }
        return try body(&values[key]!)
    }

    /// Every value held, for a caller that frees them all.
    package var all: Dictionary<Key, Value>.Values { values.values }
}
