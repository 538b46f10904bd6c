import CFontconfig
import FoundationEssentials
import Support

/// A font the fallback chain may pick, with its coverage.
struct FontCandidate {
    var face: FontFace
    /// Every family name the font gives (fonts may name themselves in several languages).
    var families: [String]
    /// Fontconfig charset, one per face, owned by the library.
    var charset: OpaquePointer?
    /// Fontconfig says every glyph has one width.
    var isMonospace = false
    /// A fixed-width face for text: Fontconfig calls a colour emoji font fixed-width too.
    var isMonospaceText: Bool { isMonospace && !face.isColor }
    /// The charset's ASCII part as bits: itemizing asks about every cluster, most of them ASCII.
    private let ascii: (low: UInt64, high: UInt64)

    init(face: FontFace, families: [String], charset: OpaquePointer?, isMonospace: Bool = false) {
        (self.face, self.families, self.charset, self.isMonospace) = (face, families, charset, isMonospace)
        var bits: (low: UInt64, high: UInt64) = (0, 0)
        for value in UInt32(0)..<128 where charset.map({ FcCharSetHasChar($0, value) != 0 }) ?? false {
            if value < 64 { bits.low |= 1 << value } else { bits.high |= 1 << (value - 64) }
        }
        ascii = bits
    }

    func isFamily(_ name: String) -> Bool { families.contains { $0.equalsIgnoringCase(name) } }

    func covers(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 64 { return ascii.low >> value & 1 != 0 }
        if value < 128 { return ascii.high >> (value - 64) & 1 != 0 }
        guard let charset else { return false }
        return FcCharSetHasChar(charset, value) != 0
    }
}

/// The fonts to try for each cluster, best first.
struct FontChain {
    var candidates: [FontCandidate]
    var primary: FontCandidate { candidates[0] }
    /// The pinned fonts' part of a chain that also has system fonts, not yet loaded: a
    /// cluster none of these covers needs the whole chain.
    var isPartial = false
}

/// Fontconfig behind a small wrapper: a private configuration over the repo's fonts, and the
/// system's configuration as a fallback. Repo fonts always come first in a chain.
package final class FontLibrary: @unchecked Sendable {
    /// The pinned folders' configuration, then the system's once loaded.
    private var configs: [OpaquePointer] = []
    /// The system's fonts are a fallback, loaded on first need (about 5 ms): a text the pinned
    /// fonts cover whole never pays for them.
    private let includeSystemFonts: Bool
    private var systemLoaded = false
    /// One charset per face (a reference of Fontconfig's own), whatever sorted list or file
    /// query found it: the lists and patterns are freed at once, so memory grows with the
    /// faces installed, not with the font names requests ask for.
    private var charsets: [FaceKey: OpaquePointer] = [:]
    /// Guards the chains cache and Fontconfig (not thread-safe per config).
    private let lock = Lock()
    /// Bounded: every spelling of a family name is its own key.
    private var chains = BoundedCache<FontSpec, FontChain>(limit: FontLibrary.chainLimit)
    private var pinnedChains = BoundedCache<FontSpec, FontChain>(limit: FontLibrary.chainLimit)
    /// Bounded caches: one blob per font file, HarfBuzz faces per file and index, fonts per
    /// size (a run that fits text to a box asks for many sizes). What a cache lets go lives on
    /// while a font or face made from it does.
    private let fontLock = Lock()
    private var blobs = BoundedCache<String, FontBlob>(limit: FontLibrary.fileLimit)
    private var harfBuzzFaces = BoundedCache<FaceKey, HarfBuzzFace>(limit: FontLibrary.fileLimit)
    private var sizedFonts = BoundedCache<SizedKey, ShapingFont>(limit: FontLibrary.sizedFontLimit)
    /// Told of each face the first time a text is itemized with it (see `observeNewFaces`), once.
    private var faceObserver: (@Sendable (FontFace) -> Void)?
    private var observed: Set<FaceKey> = []
    static let fileLimit = 128
    static let sizedFontLimit = 256
    static let chainLimit = 256

    /// Hyphenation dictionaries for texts typeset with these fonts.
    package let hyphenation: Hyphenation
    /// A Fontconfig configuration file naming exactly the fonts this library uses (its folders,
    /// its cache, and the system's configuration when system fonts are on): what a decoder in
    /// another process (librsvg drawing an SVG's text) is given, so its text uses the run's fonts.
    package let configurationFile: String

    /// - Parameters:
    ///   - directories: folders of pinned fonts, searched before any system font.
    ///   - includeSystemFonts: also use the system's Fontconfig fonts as fallback.
    ///   - cacheDirectory: where Fontconfig may keep its cache of the pinned folders (nil: none,
    ///     the folders are scanned each time).
    ///   - hyphenation: the dictionaries `hyphenate` uses.
    package init(directories: [String], includeSystemFonts: Bool, cacheDirectory: String? = nil,
                hyphenation: Hyphenation = Hyphenation()) throws {
        self.includeSystemFonts = includeSystemFonts
        self.hyphenation = hyphenation
        configurationFile = "<?xml version=\"1.0\"?><fontconfig>"
            + directories.map { "<dir>\($0.xmlEscaped)</dir>" }.joined()
            + (cacheDirectory.map { "<cachedir>\($0.xmlEscaped)</cachedir>" } ?? "")
            + (includeSystemFonts ? "<include ignore_missing=\"yes\">/etc/fonts/fonts.conf</include>" : "")
            + "</fontconfig>"
        if !directories.isEmpty {
            try directories.forEach(FontFolder.check)
            guard let config = FcConfigCreate() else { throw TypesetError.fontconfig("cannot create a configuration") }
            configs.append(config)
            let cache = cacheDirectory
            let xml = "<?xml version=\"1.0\"?><fontconfig>"
                + directories.map { "<dir>\($0.xmlEscaped)</dir>" }.joined()
                + (cache.map { "<cachedir>\($0.xmlEscaped)</cachedir>" } ?? "")
                + "</fontconfig>"
            guard FcConfigParseAndLoadFromMemory(config, xml, 1) != 0, FcConfigBuildFonts(config) != 0 else {
                throw TypesetError.fontconfig("cannot load fonts from \(directories.joined(separator: ", "))")
            }
        } else {
            try loadSystemFonts()
        }
    }

    /// Loads the system's configuration once; called under the lock (or from init).
    private func loadSystemFonts() throws {
        guard includeSystemFonts, !systemLoaded else { return }
        guard let config = FcInitLoadConfigAndFonts() else {
            throw TypesetError.fontconfig("cannot load the system configuration")
        }
        configs.append(config)
        systemLoaded = true
    }

    /// Whether the system's configuration has been loaded (tests watch the lazy loading).
    var systemFontsLoaded: Bool { lock.withLock { systemLoaded } }

    /// Whether a chain may leave the system's fonts out for now.
    private var systemPending: Bool { includeSystemFonts && !systemLoaded }

    deinit {
        charsets.values.forEach { FcCharSetDestroy($0) }
        configs.forEach { FcConfigDestroy($0) }
    }

    /// Chains and charsets held (what the bounds keep finite).
    var heldCounts: (chains: Int, charsets: Int) { lock.withLock { (chains.count, charsets.count) } }

    /// The candidates for `spec`: the requested face first, then every other face sorted by
    /// Fontconfig's closeness to it, repo fonts before system fonts.
    /// With `pinnedFirst`, while the system's fonts are not loaded, the chain may be the
    /// pinned fonts' part only (`isPartial`): the same candidates, in the same order, that the
    /// whole chain starts with, when they hold the requested family (or a fixed-width face for
    /// monospace). A text they do not cover asks again without `pinnedFirst`.
    func chain(for spec: FontSpec, pinnedFirst: Bool = false) throws -> FontChain {
        try lock.withLock {
            if pinnedFirst, systemPending, let partial = pinnedChain(for: spec) { return partial }
            try loadSystemFonts()
            return try unlockedChain(for: spec)
        }
    }

    private func pinnedChain(for spec: FontSpec) -> FontChain? {
        if let chain = pinnedChains[spec] { return chain.candidates.isEmpty ? nil : chain }
        var chain = FontChain(candidates: [], isPartial: true)
        // A family the pinned fonts lack throws here: the whole chain then has it, or says so.
        if let candidates = try? orderedCandidates(for: spec, configs: configs), let first = candidates.first {
            if !spec.isGenericMonospace || first.isMonospaceText { chain.candidates = candidates }
        }
        pinnedChains.insert(chain, for: spec)
        return chain.candidates.isEmpty ? nil : chain
    }

    private func unlockedChain(for spec: FontSpec) throws -> FontChain {
        if let chain = chains[spec] { return chain }
        let chain = FontChain(candidates: try orderedCandidates(for: spec, configs: configs))
        chains.insert(chain, for: spec)
        return chain
    }

    /// Every face of `configs` for `spec`, best first (see `chain(for:)`).
    private func orderedCandidates(for spec: FontSpec, configs: [OpaquePointer]) throws -> [FontCandidate] {
        var candidates = try spec.file.map { [try candidate(forFile: $0)] } ?? []
        var seen = Set(candidates.map { FaceKey($0.face) })
        for config in configs {
            for candidate in sorted(config: config, spec: spec) where seen.insert(FaceKey(candidate.face)).inserted {
                candidates.append(candidate)
            }
        }
        if let family = spec.family, spec.file == nil, !FontSpec.genericFamilies.contains(family.lowercased()) {
            // The named family leads (Fontconfig may rank a face with a better style ahead). Its
            // absence from the sorted list means it is not installed: only then are all the
            // family names listed, for suggestions.
            guard let index = candidates.firstIndex(where: { $0.isFamily(family) }) else {
                throw TypesetError.unknownFont(family, suggestions: closest(to: family, in: allFamilies()))
            }
            candidates.insert(candidates.remove(at: index), at: 0)
        }
        // A generic monospace leads with a fixed-width text face, pinned or system (the pinned
        // folder's sort would put any pinned face first). Fontconfig calls a colour emoji font
        // fixed-width too; it covers no letters, so it cannot lead.
        if spec.isGenericMonospace, let index = candidates.firstIndex(where: \.isMonospaceText) {
            candidates.insert(candidates.remove(at: index), at: 0)
        }
        guard !candidates.isEmpty else { throw TypesetError.fontconfig("no fonts found") }
        return candidates
    }

    private struct SizedKey: Hashable {
        var face: FaceKey
        var size: Double
        var variations: FontVariations
    }

    /// Calls `observer` with each face the first time a text is itemized with it, before it
    /// is shaped: a renderer may open its own faces meanwhile. The call is made on the
    /// itemizing thread, outside the library's locks; it must return at once.
    package func observeNewFaces(_ observer: @escaping @Sendable (FontFace) -> Void) {
        fontLock.withLock { faceObserver = observer }
    }

    /// Tells the observer of those of `faces` it has not been told of.
    func willShape(with faces: [FontFace]) {
        let (fresh, observer) = fontLock.withLock { () -> ([FontFace], (@Sendable (FontFace) -> Void)?) in
            guard let faceObserver else { return ([], nil) }
            return (faces.filter { observed.insert(FaceKey($0)).inserted }, faceObserver)
        }
        if let observer { fresh.forEach(observer) }
    }

    /// The shaping font for `face` at `size` (and axis values), shared by every typesetter on
    /// this library.
    func shapingFont(_ face: FontFace, size: Double, variations: FontVariations = .none) throws -> ShapingFont {
        try fontLock.withLock {
            let faceKey = FaceKey(face), key = SizedKey(face: faceKey, size: size, variations: variations)
            if let font = sizedFonts[key] { return font }
            let harfBuzzFace = try harfBuzzFaces[faceKey] ?? HarfBuzzFace(blob: try unlockedBlob(face.file), index: face.index)
            harfBuzzFaces.insert(harfBuzzFace, for: faceKey)
            let font = try ShapingFont(face: harfBuzzFace, size: size, variations: variations)
            sizedFonts.insert(font, for: key)
            return font
        }
    }

    /// The bytes of `face`'s file, mapped once for HarfBuzz and FreeType alike.
    package func blob(of face: FontFace) throws -> FontBlob {
        try fontLock.withLock { try unlockedBlob(face.file) }
    }

    private func unlockedBlob(_ file: String) throws -> FontBlob {
        if let blob = blobs[file] { return blob }
        let blob = try FontBlob(file: file)
        blobs.insert(blob, for: file)
        return blob
    }

    private struct FaceKey: Hashable {
        var file: String
        var index: Int
        init(_ face: FontFace) { file = face.file; index = face.index }
    }

    private func candidate(forFile path: String) throws -> FontCandidate {
        // FreeType opens the file by name and would block on a FIFO: the one opening rule first.
        do { try Posix.checkRegular(path, as: "font file") } catch { throw TypesetError.unreadableFontFile(path) }
        // A web font's declared sizes, before FreeType inflates it whole to query it.
        if let why = WebFont.refusal(file: path) { throw TypesetError.damagedFont(path, why) }
        var count: Int32 = 0
        guard let pattern = FcFreeTypeQuery(path, 0, nil, &count) else { throw TypesetError.notAFont(path) }
        defer { FcPatternDestroy(pattern) }
        guard let candidate = makeCandidate(pattern) else { throw TypesetError.notAFont(path) }
        return candidate
    }

    private func sorted(config: OpaquePointer, spec: FontSpec) -> [FontCandidate] {
        guard let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, spec.family ?? "sans-serif")
        FcPatternAddInteger(pattern, FC_WEIGHT, Int32(spec.weight))
        FcPatternAddInteger(pattern, FC_SLANT, Int32(spec.slant))
        // A generic monospace (<tt>) asks for fixed-width faces: the pinned folder has no alias
        // rules. Nothing is trimmed then: a fixed-width face covering only Latin adds no coverage
        // to a sort led by a wider face, and trimming would drop it.
        let monospace = spec.isGenericMonospace
        if monospace { FcPatternAddInteger(pattern, FC_SPACING, FC_MONO) }
        // Fontconfig would take the language from LANG/LC_ALL (FcDefaultSubstitute), which
        // reorders fallback: a fixed one keeps renders the same on every machine and locale.
        FcPatternAddString(pattern, FC_LANG, "en")
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let set = FcFontSort(config, pattern, monospace ? 0 : 1, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        return (0..<Int(set.pointee.nfont)).compactMap { set.pointee.fonts[$0].flatMap(makeCandidate) }
    }

    private func makeCandidate(_ pattern: OpaquePointer) -> FontCandidate? {
        guard let file = string(pattern, FC_FILE) else { return nil }
        var index: Int32 = 0
        FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        // Fontconfig lists each named instance of a variable font as its own face, index
        // (instance << 16 | face); the font itself is listed too, at the plain face index, and
        // its axes are set by --variations. An instance is not a face HarfBuzz can open.
        guard index >> 16 == 0 else { return nil }
        var color: FcBool = 0
        FcPatternGetBool(pattern, FC_COLOR, 0, &color)
        let families = strings(pattern, FC_FAMILY)
        let face = FontFace(file: file, index: Int(index), family: families.first ?? "",
                            style: string(pattern, FC_STYLE) ?? "", isColor: color != 0)
        var spacing: Int32 = 0
        FcPatternGetInteger(pattern, FC_SPACING, 0, &spacing)
        return FontCandidate(face: face, families: families, charset: charset(of: FaceKey(face), in: pattern),
                             isMonospace: spacing == FC_MONO)
    }

    /// The face's one charset, taken from `pattern` the first time the face is seen.
    private func charset(of face: FaceKey, in pattern: OpaquePointer) -> OpaquePointer? {
        if let known = charsets[face] { return known }
        var found: OpaquePointer?
        guard FcPatternGetCharSet(pattern, FC_CHARSET, 0, &found) == FcResultMatch, let found, let kept = FcCharSetCopy(found) else {
            return nil
        }
        charsets[face] = kept
        return kept
    }

    private func string(_ pattern: OpaquePointer, _ object: String, _ n: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }

    /// All values of a string property.
    private func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        while let value = string(pattern, object, Int32(values.count)) { values.append(value) }
        return values
    }

    /// Runs `body` over every configuration (the system's loaded first when it is used), under
    /// the lock: Fontconfig is not thread-safe per configuration.
    func withConfigurations<T>(_ body: ([OpaquePointer]) -> T) -> T {
        lock.withLock {
            try? loadSystemFonts()
            return body(configs)
        }
    }

    private func allFamilies() -> [String] {
        try? loadSystemFonts()  // suggestions come from every font the run may use
        var names = Set<String>()
        for config in configs {
            guard let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { continue }
            FcObjectSetAdd(objects, FC_FAMILY)
            if let set = FcFontList(config, pattern, objects) {
                for i in 0..<Int(set.pointee.nfont) {
                    if let font = set.pointee.fonts[i] { names.formUnion(strings(font, FC_FAMILY)) }
                }
                FcFontSetDestroy(set)
            }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        return names.sorted()
    }

}


/// Up to three known families closest to `name` (by edit distance, or containing it).
package func closest(to name: String, in families: [String]) -> [String] {
    // No family is this long: comparing would cost length x families x their lengths for
    // nothing (a 100 KB name took 11 s against the system's families).
    guard name.count <= 256 else { return [] }
    let query = name.lowercased()
    let scored = families.map { family -> (String, Int) in
        let lower = family.lowercased()
        let distance = lower.contains(query) || query.contains(lower)
            ? min(editDistance(query, lower), abs(lower.count - query.count) / 2)
            : editDistance(query, lower)
        return (family, distance)
    }
    let limit = max(2, query.count / 3)
    return scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
}
