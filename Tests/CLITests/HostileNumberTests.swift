import Foundation
import Testing
import TestSupport

/// Every option of every subcommand, given hostile numbers: a numeric option refuses 1e300,
/// -1e300, nan and inf with exit 3 and one line (and takes -0 wherever 0 is allowed); any other
/// option may accept such a value, but no value ever ends the process by a signal. The options
/// come from the binary's own help dump, so a new option fails here until it is classified.
@Suite struct HostileNumberTests {
    static let hostile = ["1e300", "-1e300", "nan", "inf", "-0"]

    /// Options whose value is a number, or carries numbers (sizes, lists, offsets).
    static let numeric: Set<String> = [
        "width", "max-lines", "size", "line-spacing", "hyphen-min", "line-height", "letter-spacing", "word-spacing",
        "paragraph-spacing", "indent",
        "quality", "avif-speed", "margin", "canvas", "scale", "max-pixels", "outline-width", "padding", "radius", "shadow", "stroke",
        "visible-lines", "blur-radius", "feather", "scramble-seed", "page", "page-margin", "orphans", "widows",
        "max-pages", "threshold", "max-diff-pixels", "max-diff-ratio", "ignore", "max-input-bytes", "column",
        "dot-size", "gap", "current", "jobs", "shard", "weight", "stretch", "min-ssim", "dpi", "fps", "duration", "loop",
        // The service's.
        "port", "max-age", "cache-mb", "slowest-avif-speed", "max-body", "concurrency", "queue", "timeout-ms", "read-timeout-ms", "memory-mb", "max-connections",
    ]
    /// Options whose value is text, a path, a colour or a choice.
    static let other: Set<String> = [
        "text", "text-file", "markup", "markup-file", "markdown", "markdown-file", "spans", "style", "match", "alt", "animation", "align", "ellipsis", "font", "direction", "lang", "role", "wrap", "features", "variations", "color",
        "font-dir", "o", "format", "png-compression", "avif-chroma", "title", "author", "subject", "keywords", "background",
        "dump-layout", "highlight", "highlight-style", "outline-color", "join", "restrict-mode", "page-number-format",
        "header", "expect", "diff", "size-mismatch", "steps-file", "step", "dot-color", "first-side", "var", "pdf",
        "template", "data", "output", "out-dir", "report", "expect-dir", "html-report", "junit",
        "metric", "config", "candidates", "summary-md", "update", "pdf-standard", "link-schemes", "decoders",
        "host", "templates", "assets", "token-file", "etag-secret-file", "url-signing-key-file",
    ]

    /// A value for a composite option with the hostile number in each of its places.
    static func values(for option: String, _ n: String) -> [String] {
        switch option {
        case "canvas", "page": ["\(n)x100", "100x\(n)"]
        case "padding", "hyphen-min": [n, "\(n),2", "2,\(n)"]
        case "shadow": ["\(n),0,1,black", "0,\(n),1,black", "0,0,\(n),black"]
        case "stroke": ["\(n),black"]
        case "ignore": ["\(n),0,10,10", "0,0,\(n),10"]
        case "shard": ["\(n)/2", "0/\(n)"]
        case "page-margin": [n, "\(n),10"]
        default: [n]
        }
    }

    /// The smallest valid call of each subcommand, run in `folder` (outputs land there).
    static func base(_ command: String, _ folder: URL) throws -> [String] {
        switch command {
        case "render": return ["render", "--text", "hi", "-o", "out.png"]
        case "steps": return ["steps", "--step", "a", "--step", "b", "-o", "out.png"]
        case "card":
            try Data(#"{"size": "200x200", "blocks": [{"type": "text", "text": "hi", "size": 20}]}"#.utf8)
                .write(to: folder.appendingPathComponent("card.json"))
            return ["card", "card.json", "-o", "out.png"]
        case "batch":
            try Data(#"{"size": "200x200", "output": "a.png", "blocks": [{"type": "text", "text": "hi", "size": 20}]}"#.utf8 + [10])
                .write(to: folder.appendingPathComponent("cards.jsonl"))
            return ["batch", "cards.jsonl", "--out-dir", "cards"]
        case "compare":
            let png = try CLI.run(["render", "--text", "a", "-o", "-", "--size", "12"]).stdout
            try Data(png).write(to: folder.appendingPathComponent("a.png"))
            return ["compare", "a.png", "a.png"]
        // Any port: a value the service accepts starts it (and the test stops it).
        case "serve": return ["serve", "--port", "0"]
        default: throw TestFailure("no base call for \(command)")
        }
    }

    /// Each subcommand's options that take a value, read once from `hlrender options --flags`
    /// (serve's from the service's option table).
    static let dumped = Result { try readOptions() }
    static func options() throws -> [String: [String]] { try dumped.get() }

    private static func readOptions() throws -> [String: [String]] {
        let dump = try CLI.run(["options", "--flags"], pinnedFonts: false)
        let json = try JSONSerialization.jsonObject(with: Data(dump.stdout)) as? [String: [[String: String]]] ?? [:]
        return json.mapValues { flags in flags.filter { $0["kind"] == "option" }.compactMap { $0["name"] } }
    }

    @Test func everyOptionIsClassified() throws {
        let all = Set(try Self.options().values.joined())
        #expect(!all.isEmpty)
        #expect(all.subtracting(Self.numeric.union(Self.other)).sorted() == [], "classify these options as numeric or not")
    }

    @Test(arguments: ["render", "steps", "card", "batch", "compare", "serve"])
    func hostileNumbers(command: String) throws {
        let options = try #require(try Self.options()[command])
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try Self.base(command, folder)
        for option in options {
            let isNumeric = Self.numeric.contains(option)
            // Text, path and choice options: one hostile number each is enough to show no trap.
            for number in isNumeric ? Self.hostile : ["nan"] {
                for value in isNumeric ? Self.values(for: option, number) : [number] {
                    let flag = option.count == 1 ? "-\(option)" : "--\(option)"
                    let result = try CLI.run(base + ["\(flag)=\(value)"], pinnedFonts: command != "serve", directory: folder,
                                             timeout: command == "serve" ? 5 : nil)
                    let call = "\(command) \(flag)=\(value)"
                    #expect(!result.signalled, "\(call) ended by signal \(result.status)")
                    if result.signalled { continue }
                    let lines = result.stderr.split(separator: "\n").filter { !$0.contains("warning:") }
                    if result.status == 3 {
                        #expect(lines.count == 1 && lines[0].hasPrefix("hlrender: error: "), "\(call): \(result.stderr)")
                    } else {
                        #expect([0, 1, 2].contains(result.status), "\(call) exited \(result.status): \(result.stderr)")
                    }
                    if isNumeric && number != "-0" {
                        #expect(result.status == 3, "\(call) was accepted (exit \(result.status))")
                    }
                }
            }
        }
    }
}
