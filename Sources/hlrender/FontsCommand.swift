import Flags
import Glibc
import Support
import Typeset

/// `hlrender fonts`: the families a run can use and where each comes from, as
/// `pango-view --list-fonts` and `fc-list` list theirs; `--json` for programs.
struct FontsCommand: Command {
    static let info = CommandInfo(
        name: "fonts",
        abstract: "List the font families hlrender can use, where each comes from, its styles and axes.",
        discussion: """
            Sources: font-dir (a --font-dir folder, searched first), pinned (the fonts shipped with \
            hlrender) and system (Fontconfig's, unless --no-system-fonts). A FAMILY narrows the list to \
            the families whose name contains it; one that matches nothing gets the closest names.
            """,
        examples: [
            "hlrender fonts",
            "hlrender fonts --match \"Inter Bold\"",
        ])

    @Argument(help: Help("Only families whose name contains this (any case).", valueName: "family")) var filter: [String] = []
    @Flag("json", help: "Print JSON: {\"families\": [{\"family\", \"source\", \"axes\", \"faces\": [{\"style\", \"weight\", \"file\", \"source\", ...}]}, ...]}.") var json = false
    @Option("match", help: Help("Print the face this request picks and why, as fc-match does: FAMILY[:weight=W][:italic][:width=N] (CSS weights, 100-1000).", valueName: "pattern"))
    var match: String?
    @Group var folders: FontFolderFlags

    /// One family and its faces, each with where it comes from (a --font-dir folder may hold
    /// a family the pinned fonts or the system have too: the library searches in that order).
    struct Family {
        var name: String
        var faces: [(face: FontListing, source: String)]
        /// The faces' sources, in search order, once each: "font-dir+pinned".
        var source: String { ["font-dir", "pinned", "system"].filter { s in faces.contains { $0.source == s } }.joined(separator: "+") }
    }

    func run() throws {
        guard filter.count <= 1 else { throw CLIFailure(message: "give at most one family, got \(filter.count)") }
        let library = try folders.library()
        let pinned = try FontSetup.environment().pinnedDirectories
        if let match {
            guard filter.isEmpty else { throw CLIFailure(message: "give a FAMILY or --match, not both") }
            let spec: FontSpec
            do { spec = try FontSpec.parse(pattern: match) } catch { throw CLIFailure(message: "--match '\(match)': \(error)") }
            let face = try library.match(spec)
            let choice = FontChoice(spec: spec, face: face, source: Self.source(face.file, fontDirs: folders.fontDir, pinned: pinned),
                                    installed: spec.family.map(library.isInstalled) ?? true)
            print(json ? choice.json.serialized() : choice.text, terminator: json ? "\n" : "")
            return
        }
        let all = Self.families(library.listing(), fontDirs: folders.fontDir, pinned: pinned)
        var shown = all
        if let wanted = filter.first {
            shown = all.filter { $0.name.lowercased().contains(wanted.lowercased()) }
            guard !shown.isEmpty else {
                let near = closest(to: wanted, in: all.map(\.name))
                let hint = near.isEmpty ? "" : "; " + didYouMean(near)
                throw CLIFailure(message: "no font family matches '\(wanted)'\(hint)")
            }
        }
        print(json ? Self.json(shown).serialized() : Self.text(shown), terminator: json ? "\n" : "")
    }

    /// Faces grouped by family, in the library's order; each family's source is where its
    /// first face lives.
    static func families(_ faces: [FontListing], fontDirs: [String], pinned: [String]) -> [Family] {
        let source = { (file: String) in Self.source(file, fontDirs: fontDirs, pinned: pinned) }
        var order: [String] = []
        var byName: [String: Family] = [:]
        for face in faces {
            let key = face.family.lowercased()
            if byName[key] == nil {
                order.append(key)
                byName[key] = Family(name: face.family, faces: [])
            }
            byName[key]!.faces.append((face, source(face.file)))
        }
        let rank = { (family: Family) in ["font-dir", "pinned", "system"].firstIndex { family.source.hasPrefix($0) } ?? 3 }
        return order.map { byName[$0]! }.sorted { (rank($0), $0.name.lowercased()) < (rank($1), $1.name.lowercased()) }
    }

    /// Where a font file comes from: a --font-dir folder, the pinned fonts or the system.
    static func source(_ file: String, fontDirs: [String], pinned: [String]) -> String {
        let inside = { (dirs: [String]) in
            dirs.contains { dir in
                let base = dir.hasSuffix("/") ? String(dir.dropLast()) : dir
                return file.hasPrefix(base + "/") || file.hasPrefix(Self.resolved(base) + "/")
            }
        }
        return inside(fontDirs) ? "font-dir" : inside(pinned) ? "pinned" : "system"
    }

    static func axesText(_ axes: [FontAxis]) -> String {
        axes.map { "\($0.tag) \(number($0.minimum))-\(number($0.maximum)) (default \(number($0.defaultValue)))" }
            .joined(separator: ", ")
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// A family a line ("Noto Sans  pinned  Regular 400, Bold 700"), its axes on the next.
    static func text(_ families: [Family]) -> String {
        let width = min(40, families.map(\.name.count).max() ?? 0)
        return families.map { family in
            let mixed = family.source.contains("+")
            let styles = family.faces.map { "\($0.face.style) \($0.face.weight)" + (mixed ? " [\($0.source)]" : "") }.joined(separator: ", ")
            let pad = { (text: String, width: Int) in text + String(repeating: " ", count: max(0, width - text.count)) }
            var line = pad(family.name, width) + "  " + pad(family.source, 8) + "  " + styles + "\n"
            if let axes = family.faces.first?.face.axes, !axes.isEmpty { line += "    axes: \(axesText(axes))\n" }
            return line
        }.joined()
    }

    static func json(_ families: [Family]) -> JSONValue {
        .object([("families", .array(families.map { family in
            .object([
                ("family", .string(family.name)), ("source", .string(family.source)),
                ("axes", .array((family.faces.first?.face.axes ?? []).map { axis in
                    .object([("tag", .string(axis.tag)), ("min", .number(axis.minimum)), ("default", .number(axis.defaultValue)),
                             ("max", .number(axis.maximum))])
                })),
                ("faces", .array(family.faces.map { face, source in
                    .object([("style", .string(face.style)), ("weight", .number(Double(face.weight))), ("italic", .bool(face.italic)),
                             ("file", .string(face.file)), ("index", .number(Double(face.index))), ("source", .string(source))])
                })),
            ])
        }))])
    }

    /// A folder's real path (Fontconfig lists files under it), or the path itself.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
