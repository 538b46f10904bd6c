/// A service that cannot start (a missing folder, an unreadable template), in one line.
package struct ServeError: Error, CustomStringConvertible, Sendable {
    package let description: String
    init(_ description: String) { self.description = description }
}
