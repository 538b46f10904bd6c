import Support

/// What a suite of goldens was recorded with: hlrender's version, the C libraries that draw
/// and set text, and a hash of every font file used. Written next to the goldens on
/// `--update` (`hlrender-env.json`) so a failing run can say what changed since.
package struct GoldenEnvironment: Equatable, Sendable {
    package static let fileName = "hlrender-env.json"

    package var version: String
    package var libraries: [Entry]
    /// Font file name (no folder: machines keep fonts in different places) and its SHA-256.
    package var fonts: [Entry]

    package struct Entry: Equatable, Sendable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(version: String, libraries: [Entry], fonts: [Entry]) {
        self.version = version
        self.libraries = libraries
        self.fonts = fonts.sorted { $0.name < $1.name }
    }

    /// This process's environment: `libraries` are the drawing libraries' names and versions
    /// (the renderer's to say), `fontFiles` maps each font file used to its bytes' reader.
    package static func current(version: String, libraries: [(name: String, version: String)], fontFiles: [String],
                                read: (String) throws -> [UInt8]) rethrows -> GoldenEnvironment {
        let fonts = try fontFiles.sorted().map { path in
            Entry(String(path.split(separator: "/").last ?? Substring(path)), SHA256.hex(try read(path)))
        }
        return GoldenEnvironment(version: version, libraries: libraries.map { Entry($0.name, $0.version) }, fonts: fonts)
    }

    package var json: JSONValue {
        let members = { (entries: [Entry]) in JSONValue.object(entries.map { (key: $0.name, value: .string($0.value)) }) }
        return .object([(key: "hlrender", value: .string(version)), (key: "libraries", value: members(libraries)),
                        (key: "fonts", value: members(fonts))])
    }

    /// Reads a recorded file; nil when it is not one (a damaged record only loses the hints).
    package init?(json: JSONValue) {
        guard case let .string(version)? = json["hlrender"], case let .object(libraries)? = json["libraries"],
              case let .object(fonts)? = json["fonts"] else { return nil }
        let entries = { (members: [(key: String, value: JSONValue)]) in
            members.compactMap { member -> Entry? in
                if case let .string(value) = member.value { return Entry(member.key, value) } else { return nil }
            }
        }
        self.init(version: version, libraries: entries(libraries), fonts: entries(fonts))
    }

    /// What differs from `recorded`, one line each, saying what the change may affect.
    package func differences(from recorded: GoldenEnvironment) -> [String] {
        var out: [String] = []
        if recorded.version != version { out.append("hlrender \(recorded.version) -> \(version): rendering may differ") }
        for old in recorded.libraries {
            let new = libraries.first { $0.name == old.name }?.value ?? "missing"
            if new != old.value { out.append("\(old.name) \(old.value) -> \(new): \(GoldenEnvironment.effect(of: old.name))") }
        }
        for old in recorded.fonts {
            guard let new = fonts.first(where: { $0.name == old.name }) else { continue }  // not used in this run
            if new.value != old.value { out.append("font \(old.name) changed (sha256 \(old.value.prefix(12))... -> \(new.value.prefix(12))...): its glyphs may differ") }
        }
        for new in fonts where !recorded.fonts.contains(where: { $0.name == new.name }) {
            out.append("font \(new.name) was not used when the goldens were recorded: fallback may differ")
        }
        return out
    }

    static func effect(of library: String) -> String {
        switch library {
        case "FreeType": "glyph rendering may differ"
        case "HarfBuzz": "shaping (glyph choice and positions) may differ"
        case "Fontconfig": "font matching and fallback may differ"
        case "ICU": "line breaking and bidi may differ"
        case "Cairo", "pixman": "rasterisation and anti-aliasing may differ"
        default: "decoding may differ"
        }
    }
}
