import Support

/// `goldens.json`: comparison options for a whole run and per glob of relative paths, read by
/// folder comparisons, file comparisons and golden suites alike. Its keys are the comparison
/// options of `GoldenTolerance` (one definition: flags, manifest rows and the service read the
/// same), plus `rules`, a list of objects with `files` (a glob) and options:
///
/// ```json
/// { "threshold": 0.1,
///   "rules": [ { "files": "screens/**/*.png", "max-diff-ratio": 0.001, "ignore": ["0,0,1080,48"] },
///              { "files": "charts/*", "metric": "ssim", "min-ssim": 0.98 } ] }
/// ```
///
/// Order: the defaults, the file's own options, the command's flags, then every rule whose glob
/// matches, in the file's order (a later rule wins; `ignore` regions add up).
package struct GoldenConfig: Sendable {
    /// The file's name where a folder comparison and a suite look for it.
    package static let fileName = "goldens.json"
    /// The most rules a file may hold (each file of a run is matched against each).
    package static let maxRules = 256

    package struct Rule: Sendable {
        package var glob: Glob
        package var options: [(String, JSONValue)]
    }

    /// The file's own options, outside any rule.
    package var options: [(String, JSONValue)] = []
    package var rules: [Rule] = []

    package init() {}

    /// Parses the file's bytes; errors name the key (`rules[2].threshold: ...`).
    package init(parsing bytes: [UInt8]) throws(OptionError) {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw OptionError("is not JSON (\(error))") }
        guard case let .object(members) = json else { throw OptionError("must be a JSON object") }
        for (key, value) in members {
            if key == "rules" {
                guard case let .array(items) = value else { throw OptionError("rules: must be a list of objects") }
                guard items.count <= GoldenConfig.maxRules else { throw OptionError("rules: at most \(GoldenConfig.maxRules)") }
                for (index, item) in items.enumerated() { rules.append(try GoldenConfig.rule(item, at: "rules[\(index)]")) }
            } else {
                try GoldenConfig.check(key, value, at: key)
                options.append((key, value))
            }
        }
    }

    private static func rule(_ value: JSONValue, at path: String) throws(OptionError) -> Rule {
        guard case let .object(members) = value else { throw OptionError("\(path): must be an object") }
        var glob: Glob?
        var options: [(String, JSONValue)] = []
        for (key, value) in members {
            if key == "files" {
                guard case let .string(pattern) = value else { throw OptionError("\(path).files: must be a glob string") }
                glob = try Glob(pattern)
            } else {
                try check(key, value, at: "\(path).\(key)")
                options.append((key, value))
            }
        }
        guard let glob else { throw OptionError("\(path): needs \"files\" (a glob of relative paths)") }
        return Rule(glob: glob, options: options)
    }

    /// Each value is checked once, when the file is read, through the option's definition.
    private static func check(_ key: String, _ value: JSONValue, at path: String) throws(OptionError) {
        var scratch = GoldenTolerance()
        do {
            try scratch.set(key, .json(value))
        } catch let error as OptionError {
            let hint = GoldenTolerance.definitions.named(key) == nil
                ? suggestion(for: key, among: GoldenTolerance.optionNames + ["rules", "files"]).map { " (did you mean '\($0)'?)" } ?? "" : ""
            throw OptionError("\(path): \(error.message)\(hint)")
        } catch {
            throw OptionError("\(path): \(error)")
        }
    }

    /// The file's own options on top of `base` (the defaults).
    package func applyingOwnOptions(to base: GoldenTolerance) -> GoldenTolerance {
        var tolerance = base
        for (key, value) in options { try? tolerance.set(key, .json(value)) }
        return tolerance
    }

    /// Whether some rule's glob matches the path (`tolerance(for:base:)` then differs from its base).
    package func hasRule(for relativePath: String) -> Bool { rules.contains { $0.glob.matches(relativePath) } }

    /// `base` (the run's tolerance: defaults, this file's options, the flags) with every
    /// matching rule applied in order.
    package func tolerance(for relativePath: String, base: GoldenTolerance) -> GoldenTolerance {
        var tolerance = base
        for rule in rules where rule.glob.matches(relativePath) {
            for (key, value) in rule.options { try? tolerance.set(key, .json(value)) }
        }
        return tolerance
    }
}

/// A glob of relative paths: `*` any run of characters but `/`, `**` any run including `/`
/// (`a/**/b` also matches `a/b`), `?` one character but `/`, `[abc]` one of a set; anything else
/// matches itself. Matched without backtracking blow-up (a table over pattern and path).
package struct Glob: Sendable, CustomStringConvertible {
    private enum Token: Equatable, Sendable {
        case literal(Character), any, anyDeep, one, set([Character])
    }

    private let tokens: [Token]
    package let description: String

    /// Patterns are at most 1,024 characters (the match table grows with pattern x path).
    package init(_ pattern: String) throws(OptionError) {
        guard !pattern.isEmpty, pattern.count <= 1024 else { throw OptionError("'\(pattern.prefix(40))': a glob of 1 to 1024 characters") }
        description = pattern
        var tokens: [Token] = []
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            switch c {
            case "*":
                if chars.first == "*" {
                    chars.removeFirst()
                    // `**/` also matches no folder at all.
                    if chars.first == "/" { chars.removeFirst() }
                    tokens.append(.anyDeep)
                } else {
                    tokens.append(.any)
                }
            case "?": tokens.append(.one)
            case "[":
                guard let close = chars.firstIndex(of: "]"), close > chars.startIndex else { throw OptionError("'\(pattern)': '[' without ']'") }
                tokens.append(.set(Array(chars[chars.startIndex..<close])))
                chars = chars[(close + 1)...]
            default: tokens.append(.literal(c))
            }
        }
        self.tokens = tokens
    }

    package func matches(_ path: String) -> Bool {
        let text = Array(path)
        // reach[j]: the pattern so far can match text[0..<j].
        var reach = [Bool](repeating: false, count: text.count + 1)
        reach[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: text.count + 1)
            switch token {
            case .any, .anyDeep:
                var open = false
                for j in 0...text.count {
                    if reach[j] { open = true }
                    next[j] = open
                    if j < text.count && text[j] == "/" && token == .any { open = false }
                }
            default:
                for j in 0..<text.count where reach[j] {
                    let c = text[j]
                    switch token {
                    case let .literal(l): next[j + 1] = c == l
                    case .one: next[j + 1] = c != "/"
                    case let .set(set): next[j + 1] = set.contains(c)
                    default: break
                    }
                }
            }
            reach = next
        }
        return reach[text.count]
    }
}
