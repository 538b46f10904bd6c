import Card
import Goldens
import FoundationEssentials
import Glibc
import Render
import Support
import PDFPost

/// The harnesses that reach issue 35's sinks.
extension Harness {
    /// Any bytes as a variable and as markup, through every way text reaches a PDF link: a
    /// markup href, a span's link, steps markup and plain markup. The PDF written must hold no
    /// action but a URI with an allowed scheme, and no URI string a byte could have closed.
    static func pdfLinks(_ data: [UInt8]) {
        let value = String(decoding: data, as: UTF8.self)
        let blocks: [JSONValue] = [
            .object([("type", .string("text")), ("markup", .string("<a href='{{v}}'>a</a> <a href=\"{{v}}\">{{v}}</a>")), ("width", .number(180))]),
            .object([("type", .string("text")), ("spans", .array([.object([("text", .string("go")), ("link", .string("{{v}}"))])]))]),
            .object([("type", .string("steps")), ("steps", .array([.string("{{v}}"), .string("<a href='https://x/'>b</a>")])),
                     ("steps-markup", .bool(true))]),
            .object([("type", .string("text")), ("markup", .string(value)), ("width", .number(180))]),
        ]
        for block in blocks {
            let card = JSONValue.object([("size", .string("300x200")), ("padding", .number(4)), ("blocks", .array([block]))])
            guard let output = try? engine.render(card, variables: ["v": value], folder: "/nonexistent", job: Job(format: .pdf)) else { continue }
            checkActions(output.bytes)
        }
    }

    /// Any bytes as a tagged page's content stream after Cairo's flip: marking its unmarked
    /// drawing as Artifacts must end, and a marked stream has nothing left to mark.
    static func pdfContent(_ data: [UInt8]) {
        guard let marked = PDFArtifacts.marked(Array("1 0 0 -1 0 9 cm\n".utf8) + data) else { return }
        if PDFArtifacts.marked(marked) != nil { fatalError("a marked stream had more to mark") }
    }

    /// Every `/S /Name` in the file is a structure or transparency entry or a URI action, and
    /// every `/URI (...)` string is printable ASCII without a parenthesis or backslash, whose
    /// scheme is allowed.
    static func checkActions(_ pdf: [UInt8]) {
        let text = String(decoding: pdf, as: UTF8.self)
        let allowed: Set<Substring> = ["URI", "GoTo", "Transparency", "Document", "Link", "Span", "P", "Part", "Sect", "Div", "Figure", "Artifact",
                                       "H1", "H2", "H3", "H4", "H5", "H6", "L", "LI", "LBody", "Lbl"]
        var rest = text[...]
        while let range = rest.firstRange(of: "/S /") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
            if !allowed.contains(name) { fatalError("a PDF action or element /S /\(name)") }
            rest = rest[range.upperBound...]
        }
        rest = text[...]
        while let range = rest.firstRange(of: "/URI (") {
            let uri = rest[range.upperBound...].prefix { $0 != ")" }
            let plain = uri.unicodeScalars.allSatisfy { (c: Unicode.Scalar) -> Bool in
                c.value > 0x20 && c.value < 0x7F && c != "(" && c != "\\"
            }
            guard plain else {
                fatalError("a URI string that is not plain ASCII: \(uri)")
            }
            let lower = uri.lowercased()
            guard lower.hasPrefix("http:") || lower.hasPrefix("https:") || lower.hasPrefix("mailto:") || lower.hasPrefix("#") else {
                fatalError("a URI with a scheme not allowed: \(uri)")
            }
            rest = rest[range.upperBound...]
        }
    }

    /// A card spec rendered against a memory lease: the render's peak resident memory above
    /// where it started must stay within what it reserved (with room for the allocator, Cairo's
    /// small caches and, under ASan, its shadow). The peak is the kernel's high-water mark,
    /// reset before each render (`clear_refs`).
    static func cardMemory(_ data: [UInt8]) {
        guard let json = try? JSONValue.parse(data), case .object = json else { return }
        let budget = MemoryBudget(bytes: 1 << 30)
        var leased = Job(format: .png)
        let lease = budget.lease()
        leased.memory = lease
        resetPeak()
        let before = residentKiB("VmRSS:")
        _ = try? engine.render(json, variables: ["name": "Ada"], folder: "/nonexistent", job: leased)
        let grown = (residentKiB("VmHWM:") - before) * 1024
        let allowed = lease.bytes + lease.bytes / 2 + (96 << 20)
        if grown > allowed { fatalError("the render grew \(grown >> 20) MB, reserving \(lease.bytes >> 20) MB") }
        lease.end()
    }

    private static func resetPeak() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = "5".withCString { write(fd, $0, 1) }
        close(fd)
    }

    private static func residentKiB(_ field: String) -> Int {
        guard let bytes = try? Posix.readFile("/proc/self/status", as: "status", limit: 1 << 16) else { return 0 }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(field) } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

extension Harness {
    /// goldens.json and globs: any bytes as a config file (its rules matched against a few
    /// paths) and as one glob matched against itself, must answer quickly without a crash.
    static func goldenConfig(_ data: [UInt8]) {
        if let config = try? GoldenConfig(parsing: data) {
            let base = config.applyingOwnOptions(to: GoldenTolerance())
            for path in ["a.png", "screens/x/y.png", String(decoding: data.prefix(200), as: UTF8.self)] {
                _ = config.tolerance(for: path, base: base)
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        if let glob = try? Glob(text) { _ = glob.matches(text) }
    }

    /// Any bytes as an SVG picture: the guard's scan (tags, attributes, the use graph) must
    /// end on everything; what it lets through is sized (librsvg, not instrumented, parses it).
    static func svgCheck(_ data: [UInt8]) {
        try? SVGPicture.check(data)
        // The same bytes as a CairoScript program: the replay refuses or draws, never more.
        _ = VectorPicture(script: String(decoding: data, as: UTF8.self), width: 64, height: 64)?.checked()
    }
}
