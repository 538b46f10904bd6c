import Typeset

/// A spec error: where in the JSON (`blocks[2].highlight`) and what is wrong with it.
public struct CardError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// `path.key` / `path[i]`, for error messages.
func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
func join(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }

/// Up to one known name close to `name` (edit distance), for "did you mean".
func suggestion(for name: String, among names: [String]) -> String? {
    let scored = names.map { ($0, editDistance(name.lowercased(), $0)) }.filter { $0.1 <= max(2, name.count / 3) }
    return scored.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
}
