/// The arguments of one command line, split by flag: what the wrappers read while the
/// command is built.
struct ParsedFlags {
    var values: [String: [String]] = [:]
    var positionals: [String] = []
}

/// The command being built: the wrappers declare themselves here and, once the command line
/// is split, take their values from it. A property wrapper's initialiser takes no context, so
/// the one being built is task-local (`build` binds it for the call): two commands built at once
/// on two threads each see their own, and nothing is process-wide. `@unchecked Sendable`: a
/// context is only touched by the thread running its `build`.
final class FlagContext: @unchecked Sendable {
    @TaskLocal static var current: FlagContext?

    private(set) var specs: [FlagSpec] = []
    let parsed: ParsedFlags?
    private var group: String?
    private var nextPositional = 0
    private(set) var firstError: FlagError?
    private(set) var validations: [() throws -> Void] = []

    private init(parsed: ParsedFlags?) { self.parsed = parsed }

    /// Builds `make()` with the wrappers reporting to a fresh context (values from `parsed`,
    /// or only declarations when it is nil).
    static func build<T>(parsed: ParsedFlags?, _ make: () -> T) -> (T, FlagContext) {
        let context = FlagContext(parsed: parsed)
        return ($current.withValue(context) { make() }, context)
    }

    /// Declares a flag; returns the texts given for it (nil when not given, or only declaring).
    /// A positional takes one value, or all the rest when it is `many`.
    func declare(_ spec: FlagSpec) -> [String]? {
        var spec = spec
        spec.group = group
        specs.append(spec)
        guard let parsed else { return nil }
        if spec.kind == .positional {
            let rest = parsed.positionals.dropFirst(nextPositional)
            // A required positional takes one value; a list takes the rest.
            let taken = spec.many ? Array(rest) : Array(rest.prefix(1))
            nextPositional += taken.count
            if taken.isEmpty && spec.required { fail("Missing expected argument '\(spec.label)'") }
            return taken.isEmpty ? nil : taken
        }
        return parsed.values[spec.name]
    }

    /// The positionals no declaration took.
    var unclaimedPositionals: ArraySlice<String> { (parsed?.positionals ?? []).dropFirst(nextPositional) }

    func fail(_ message: String) {
        if firstError == nil { firstError = FlagError(message) }
    }

    /// Reads a value, or records why it cannot be read.
    func convert<T: FlagValue>(_ text: String, for spec: FlagSpec) -> T? {
        if let value = T(flagText: text) { return value }
        fail("--\(spec.name): '\(text)' is not \(T.expected)")
        return nil
    }

    /// Builds a nested group under its title (an untitled group stays under its parent's).
    func inGroup<G: FlagGroup>(_ title: String?, _ make: () -> G) -> G {
        let outer = group
        if let title { group = title }
        defer { group = outer }
        let value = make()
        if parsed != nil { validations.append { try value.validate() } }
        return value
    }
}
