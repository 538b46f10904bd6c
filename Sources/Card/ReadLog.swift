import Synchronization

/// The files one render read (text files, pictures, SVGs), by the path it resolved: what an
/// incremental golden suite hashes to know the card's inputs are unchanged. Cached reads count
/// too, so a picture decoded for an earlier card is still this card's input.
package final class ReadLog: Sendable {
    private let paths = Mutex<Set<String>>([])

    package init() {}

    func add(_ path: String) { paths.withLock { _ = $0.insert(path) } }

    /// The paths read so far, sorted.
    package var files: [String] { paths.withLock { $0.sorted() } }
}
