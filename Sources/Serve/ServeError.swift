/// A service that cannot start (a missing folder, an unreadable template), in one line.
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
