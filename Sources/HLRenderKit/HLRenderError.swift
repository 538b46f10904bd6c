import Card
import Support

/// Why a render, a comparison or a check could not be done: one line, and where in the input
/// the problem is.
public struct HLRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is, for a caller that answers each differently (a service maps
    /// `.input` to 422 and `.cancelled` to 503).
    public enum Kind: String, Sendable {
        /// The spec, the options, a named file or an image is not acceptable.
        case input
        /// The render was cancelled (the calling `Task`) or passed its deadline.
        case cancelled
        /// The fonts or a C library failed.
        case system
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// Where in the input, as a JSON path (`blocks[0].spans[1].weight`); empty for the whole.
    public var path: String
    /// What is wrong.
    public var message: String
    /// The `{{variable}}` that had no value, when that is the problem.
    public var missingVariable: String?

    /// An error of `kind` at `path`.
    public init(_ kind: Kind, path: String = "", _ message: String, missingVariable: String? = nil) {
        (self.kind, self.path, self.message, self.missingVariable) = (kind, path, message, missingVariable)
    }

    /// `path: message`, or the message alone.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// Any error of the layers below as one of these.
    static func from(_ error: any Error) -> HLRenderError {
        switch error {
        case let error as HLRenderError: return error
        case let error as CardError: return HLRenderError(.input, path: error.path, error.message, missingVariable: error.missingVariable)
        case let error as OptionError: return HLRenderError(.input, path: error.subpath, error.reason)
        case let error as JSONSyntaxError: return HLRenderError(.input, "the spec is not JSON: \(error)")
        case is Cancellation.Cancelled: return HLRenderError(.cancelled, "the render was cancelled")
        case is CancellationError: return HLRenderError(.cancelled, "the render was cancelled")
        case let error as ValueError: return HLRenderError(.input, path: error.name, error.requirement)
        case let error as FileError: return HLRenderError(.input, "\(error)")
        default: return HLRenderError(.system, String(describing: error))
        }
    }
}
