import Typeset

/// A spec error: where in the JSON (`blocks[2].highlight`) and what is wrong with it.
package struct CardError: Error, Equatable, CustomStringConvertible {
    package var path: String
    package var message: String
    /// The `{{variable}}` that had no value, when that is the problem: each front end says
    /// where values come from (--var, a data column, a query parameter).
    package var missingVariable: String? { missingVariables.first }
    /// Every variable of the spec that has no value, in order of name (all are named at once,
    /// not one per run).
    package var missingVariables: [String]

    package init(_ path: String, _ message: String, missingVariable: String? = nil) {
        self.init(path, message, missingVariables: missingVariable.map { [$0] } ?? [])
    }

    package init(_ path: String, _ message: String, missingVariables: [String]) {
        self.path = path
        self.message = message
        self.missingVariables = missingVariables
    }

    package var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// `path.key` / `path[i]`, for error messages.
func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
func join(_ path: String, _ index: Int) -> String { "\(path)[\(index)]" }
