import CSVGRaster
import Glibc
import Support

/// The one guard for SVG input, before librsvg reads a byte. The document is read by libxml2,
/// the parser librsvg itself uses (no network, no entities, no DTD), so the guard sees the
/// elements and attributes librsvg will, not what a text scan guesses (a `>` inside an
/// attribute, a `</g>` in a comment, EBCDIC with no `<` at all fooled the scan it replaces).
/// Refused, each with a one-line reason: more than `maxBytes`; an encoding other than UTF-8
/// declared; anything that is not well-formed XML; a DOCTYPE or entity (the "billion laughs"
/// live there); a reference outside the document (only `#id` and `data:` hrefs; no CSS
/// `@import`, no XInclude); elements nested over `maxDepth`; `use` elements that loop or
/// expand past `maxInstances` shapes. A `data:` SVG document inside is checked the same way.
extension SVGPicture {
    static let maxBytes = 4 << 20
    static let maxDepth = 64
    static let maxInstances = 100_000
    /// `data:` SVG documents inside `data:` SVG documents, at most.
    static let maxNesting = 2

    package static func check(_ bytes: [UInt8]) throws {
        try check(bytes, nesting: 0)
    }

    private static func fail(_ why: String) -> RenderError { RenderError.image("SVG: \(why)") }

    private static func check(_ bytes: [UInt8], nesting: Int) throws {
        guard bytes.count <= maxBytes else { throw fail("\(bytes.count) bytes, over the \(maxBytes >> 20) MB an SVG picture may have") }
        // The usual refusal in its own words first; the parser below is what guarantees it.
        let ascii = String(decoding: bytes.prefix(1 << 16), as: UTF8.self).uppercased()
        if ascii.contains("<!DOCTYPE") || ascii.contains("<!ENTITY") { throw fail("a DOCTYPE or entity declaration is not accepted in pictures") }
        if let declared = declaredEncoding(bytes), !["utf-8", "utf8"].contains(declared.lowercased()) {
            throw fail("it declares the encoding '\(declared.prefix(40))'; pictures must be UTF-8")
        }
        // Ids of the open elements, and each id's `use` targets (a use counts for every
        // element around it).
        var open: [String?] = []
        var uses: [String: [String]] = [:]
        var topUses: [String] = []
        for event in try events(bytes) {
            switch event {
            case let .start(depth, name, attributes):
                guard depth < maxDepth else { throw fail("elements nested over \(maxDepth) deep") }
                if name == "{http://www.w3.org/2001/XInclude}include" {
                    throw fail("it refers to another file (XInclude); pictures must be self-contained")
                }
                for (attribute, value) in attributes where local(attribute) == "href" {
                    if value.hasPrefix("data:") {
                        try checkData(value, nesting: nesting)
                        continue
                    }
                    guard value.hasPrefix("#") else {
                        throw fail("it refers to '\(value.prefix(60))'; pictures must be self-contained (only #id and data: references)")
                    }
                    if local(name) == "use" {
                        let target = String(value.dropFirst())
                        let holders = open.compactMap { $0 }
                        if holders.isEmpty { topUses.append(target) }
                        for holder in holders { uses[holder, default: []].append(target) }
                    }
                }
                open.append(attributes.first { $0.0 == "id" }?.1)
            case .end:
                if !open.isEmpty { open.removeLast() }
            case let .text(text):
                if text.contains("@import") { throw fail("it refers to another file (@import); pictures must be self-contained") }
            }
        }
        try countUses(uses, top: topUses)
    }

    /// Shapes each id stands for once its uses are expanded; a loop is refused.
    private static func countUses(_ uses: [String: [String]], top: [String]) throws {
        var instances: [String: Int] = [:], visiting = Set<String>()
        func count(_ id: String) throws -> Int {
            if let known = instances[id] { return known }
            guard visiting.insert(id).inserted else { throw fail("'use' elements refer to each other in a loop ('#\(id.prefix(40))')") }
            var total = 1
            for target in uses[id] ?? [] {
                total += try count(target)
                guard total <= maxInstances else { throw fail("its 'use' elements expand to over \(maxInstances) shapes") }
            }
            visiting.remove(id)
            instances[id] = total
            return total
        }
        var total = 0
        for id in Array(uses.keys) + top {
            total += try count(id)
            guard total <= maxInstances * 2 else { throw fail("its 'use' elements expand to over \(maxInstances) shapes") }
        }
    }

    /// A `data:` reference: an SVG document in it is checked as a picture of its own (one
    /// level, so a document cannot hide in documents); other media types are pictures librsvg
    /// decodes as images.
    private static func checkData(_ uri: String, nesting: Int) throws {
        guard let comma = uri.firstIndex(of: ",") else { throw fail("a data: reference without data") }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma].lowercased()
        guard header.hasPrefix("image/svg+xml") else { return }
        guard nesting < maxNesting else { throw fail("SVG documents nested in data: references over \(maxNesting) deep") }
        let payload = uri[uri.index(after: comma)...]
        guard let inner = header.hasSuffix(";base64") ? base64(payload) : PercentEncoding.decode(payload) else {
            throw fail("a data: SVG document that cannot be decoded")
        }
        try check(inner, nesting: nesting + 1)
    }

    /// The encoding an XML declaration names, if the document starts with one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var head = bytes.prefix(512)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        let text = String(decoding: head, as: UTF8.self)
        guard text.hasPrefix("<?xml"), let end = text.firstRange(of: "?>") else { return nil }
        let declaration = text[..<end.lowerBound]
        guard let key = declaration.firstRange(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private static func local(_ name: String) -> Substring {
        name.split(separator: "}", maxSplits: 1).last ?? Substring(name)
    }

    enum Event {
        case start(depth: Int, name: String, attributes: [(String, String)])
        case end
        case text(String)
    }

    /// libxml2's walk of the document (`hl_svg_events`), decoded.
    static func events(_ bytes: [UInt8]) throws -> [Event] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = [CChar](repeating: 0, count: 256)
        let ok = bytes.withUnsafeBufferPointer { hl_svg_events($0.baseAddress, $0.count, Int32(maxDepth), &buffer, &length, &error, error.count) }
        defer { free(buffer) }
        guard ok != 0, let buffer else {
            throw fail(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let data = UnsafeBufferPointer(start: buffer, count: length)
        var i = 0
        func u32() -> Int {
            defer { i += 4 }
            return Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
        }
        func string() -> String {
            let n = u32()
            defer { i += n }
            return String(decoding: UnsafeBufferPointer(rebasing: data[i..<(i + n)]), as: UTF8.self)
        }
        var events: [Event] = []
        while i < length {
            let kind = data[i]
            i += 1
            switch kind {
            case UInt8(ascii: "S"):
                let depth = u32(), name = string()
                let count = u32()
                var attributes: [(String, String)] = []
                for _ in 0..<count { attributes.append((string(), string())) }
                events.append(.start(depth: depth, name: name, attributes: attributes))
            case UInt8(ascii: "E"):
                _ = u32()
                events.append(.end)
            default:
                events.append(.text(string()))
            }
        }
        return events
    }

    private static func base64(_ text: Substring) -> [UInt8]? {
        var out: [UInt8] = [], bits = 0, count = 0
        for byte in text.utf8 {
            let value: Int
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = Int(byte) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = Int(byte) - 71
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte) + 4
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="), 0x20, 0x0A, 0x0D, 0x09: continue
            default: return nil
            }
            bits = bits << 6 | value
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> count))
                bits &= (1 << count) - 1
            }
        }
        return out
    }
}
