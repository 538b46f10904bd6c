import CFontconfig
import CFreeType
import FoundationEssentials
import Support

/// A font the fallback chain may pick, with its coverage.
struct FontCandidate {
    var face: FontFace
    /// Every family name the font gives (fonts may name themselves in several languages).
    var families: [String]
    /// Fontconfig says every glyph has one width.
    var isMonospace = false
    /// The face's own style in Fontconfig's scales (weight 80 regular, slant 0 roman, width
    /// 100), and for a variable face its axes and named instances (`style(for:)` sets them).
    var weight = 80.0, slant = 0, width = 100.0
    var variable: VariableFace?
    /// A fixed-width face for text: Fontconfig calls a colour emoji font fixed-width too.
    var isMonospaceText: Bool { isMonospace && !face.isColor }
    /// What the face covers, as itemizing asks it cluster by cluster.
    let coverage: FontCoverage

    /// `charset`: the face's Fontconfig charset, one per face, owned by the library.
    init(face: FontFace, families: [String], charset: OpaquePointer?, isMonospace: Bool = false) {
        (self.face, self.families, self.isMonospace) = (face, families, isMonospace)
        coverage = FontCoverage(charset: charset)
    }

    func isFamily(_ name: String) -> Bool { families.contains { $0.equalsIgnoringCase(name) } }

    func covers(_ scalar: Unicode.Scalar) -> Bool { coverage.covers(scalar) }
}

/// A face's coverage alone: a plain value, so itemizing reads it without retaining the face's
/// names (copying a whole candidate a cluster was a tenth of itemizing a CJK or Arabic text).
struct FontCoverage {
    /// Fontconfig charset, owned by the library (nil: covers nothing).
    let charset: OpaquePointer?
    /// The charset's ASCII part as bits: itemizing asks about every cluster, most of them ASCII.
    private let ascii: (low: UInt64, high: UInt64)

    init(charset: OpaquePointer?) {
        self.charset = charset
        var bits: (low: UInt64, high: UInt64) = (0, 0)
        for value in UInt32(0)..<128 where charset.map({ FcCharSetHasChar($0, value) != 0 }) ?? false {
            if value < 64 { bits.low |= 1 << value } else { bits.high |= 1 << (value - 64) }
        }
        ascii = bits
    }

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
    /// A family that is not installed is refused rather than substituted (golden suites).
    private let strictFamilies: Bool
    /// Where a WOFF or WOFF2 file is decoded: FreeType's decoders read a file a request named.
    private let isolation: Isolation
    private var systemLoaded = false
    /// Fonts given as bytes: in every configuration after the folders' fonts.
    private let memory: MemoryFonts
    /// Its notes: each substitution and synthetic style, once (see `Notices.observe`).
    package let notices = Notices()
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
    ///   - strictFamilies: a family that is not installed is refused, never substituted.
    ///   - isolation: where web fonts a spec names are decoded (a service's limited worker).
    ///   - fontData: fonts given as bytes, pinned as the folders' are (after them).
    package init(directories: [String], includeSystemFonts: Bool, cacheDirectory: String? = nil,
                hyphenation: Hyphenation = Hyphenation(), strictFamilies: Bool = false, isolation: Isolation = .inProcess,
                fontData: [FontData] = []) throws {
        self.isolation = isolation
        memory = fontData.isEmpty ? .empty : try MemoryFonts(fontData, isolation: isolation)
        self.includeSystemFonts = includeSystemFonts
        self.strictFamilies = strictFamilies
        self.hyphenation = hyphenation
        configurationFile = "<?xml version=\"1.0\"?><fontconfig>"
            + directories.map { "<dir>\($0.xmlEscaped)</dir>" }.joined()
            + (cacheDirectory.map { "<cachedir>\($0.xmlEscaped)</cachedir>" } ?? "")
            + (includeSystemFonts ? "<include ignore_missing=\"yes\">/etc/fonts/fonts.conf</include>" : "")
            + "</fontconfig>"
        if !directories.isEmpty || !fontData.isEmpty {
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
            try memory.add(to: config)
        } else {
            try loadSystemFonts()
        }
    }

    /// Loads the system's configuration once; called under the lock (or from init). It holds
    /// the pinned folders too, first, under the system's rules (aliases, generic families,
    /// synthetic styles): the configuration `fc-match` would use for these fonts, whose match
    /// is the face a name picks.
    private func loadSystemFonts() throws {
        guard includeSystemFonts, !systemLoaded else { return }
        guard let config = FcConfigCreate() else { throw TypesetError.fontconfig("cannot create a configuration") }
        guard FcConfigParseAndLoadFromMemory(config, configurationFile, 1) != 0, FcConfigBuildFonts(config) != 0 else {
            FcConfigDestroy(config)
            throw TypesetError.fontconfig("cannot load the system configuration")
        }
        configs.append(config)
        try memory.add(to: config)
        systemLoaded = true
    }

    /// The configuration with the system's rules and fonts, once loaded.
    var systemConfig: OpaquePointer? { systemLoaded ? configs.last : nil }

    /// Whether the system's configuration has been loaded (tests watch the lazy loading).
    var systemFontsLoaded: Bool { lock.withLock { systemLoaded } }

    /// Whether a chain may leave the system's fonts out for now.
    private var systemPending: Bool { includeSystemFonts && !systemLoaded }

    deinit {
        charsets.values.forEach { FcCharSetDestroy($0) }
        configs.forEach { FcConfigDestroy($0) }
        memory.release()
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
        // A generic name is the system's rules' to resolve, and a style the pinned copy lacks
        // may be in the system's copy: both take the whole chain.
        if let candidates = try? orderedCandidates(for: spec, configs: configs), let first = candidates.first,
           spec.file != nil || spec.family.map({ !FontSpec.genericFamilies.contains($0.lowercased()) }) ?? false,
           first.isExact(for: spec) {
            chain.candidates = candidates
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

    /// Every face of `configs` for `spec`, best first (see `chain(for:)`), each styled for it
    /// (axis values, synthetic bold). The face a name picks leads: a font file; else the best
    /// face of the named family (pinned before system on a tie); else, for a generic name or a
    /// family that is not installed, the first face of Fontconfig's sort under the system's
    /// rules (its substitute, which is said once); the pinned fonts have no rules, so there a
    /// family that is not installed is refused.
    private func orderedCandidates(for spec: FontSpec, configs: [OpaquePointer]) throws -> [FontCandidate] {
        var candidates = try spec.file.map { [try candidate(forFile: $0)] } ?? []
        var seen = Set(candidates.map { FaceKey($0.face) })
        var resolved: FontCandidate?
        for config in configs {
            let sorted = sorted(config: config, spec: spec)
            if config == systemConfig, resolved == nil { resolved = sorted.first }
            for candidate in sorted where seen.insert(FaceKey(candidate.face)).inserted {
                candidates.append(candidate)
            }
        }
        guard !candidates.isEmpty else { throw TypesetError.fontconfig("no fonts found") }
        let lead: Int?
        if spec.file != nil {
            lead = 0
        } else if let family = spec.family, !FontSpec.genericFamilies.contains(family.lowercased()) {
            lead = try leadingFace(of: family, spec: spec, in: candidates, substitute: resolved)
        } else if spec.isGenericMonospace {
            // A generic monospace leads with a fixed-width text face. Fontconfig calls a colour
            // emoji font fixed-width too; it covers no letters, so it cannot lead.
            lead = candidates.firstIndex(where: \.isMonospaceText)
        } else {
            lead = resolved.flatMap { first in candidates.firstIndex { FaceKey($0.face) == FaceKey(first.face) } }
        }
        if let lead { candidates.insert(candidates.remove(at: lead), at: 0) }
        return candidates.map { $0.styled(for: spec) }
    }

    /// The index of the face that leads for a named family: its best installed face, or
    /// Fontconfig's substitute when it is not installed (said once), or a refusal.
    private func leadingFace(of family: String, spec: FontSpec, in candidates: [FontCandidate],
                             substitute: FontCandidate?) throws -> Int {
        if let best = candidates.indices.filter({ candidates[$0].isFamily(family) })
            .min(by: { candidates[$0].distance(to: spec) < candidates[$1].distance(to: spec) }) {
            return best
        }
        // The pinned fonts' part alone cannot tell: the whole chain decides (see `pinnedChain`).
        if systemPending { throw TypesetError.unknownFont(family, suggestions: []) }
        // Absent from the sorted list means not installed: only then are all the family names
        // listed, for suggestions.
        let suggestions = closest(to: family, in: allFamilies()).filter { !$0.equalsIgnoringCase(family) }
        guard !strictFamilies, let substitute,
              let index = candidates.firstIndex(where: { FaceKey($0.face) == FaceKey(substitute.face) }) else {
            throw TypesetError.unknownFont(family, suggestions: suggestions)
        }
        let hint = suggestions.isEmpty ? "" : " (\(didYouMean(suggestions)))"
        notices.post("font family '\(family)' is not installed: using '\(substitute.face.family)', Fontconfig's substitute\(hint); --font-strict refuses it")
        return index
    }

    private struct SizedKey: Hashable {
        var face: FaceKey
        var size: Double
        var variations: FontVariations
        /// The face's own axis values (`FontFace.variations`), as text: parsed only on a miss.
        var faceVariations: String
        var emboldened: Bool
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

    /// The shaping font for `face` at `size` (and axis values: the face's own, then
    /// `variations` over them), shared by every typesetter on this library.
    func shapingFont(_ face: FontFace, size: Double, variations: FontVariations = .none) throws -> ShapingFont {
        try fontLock.withLock {
            let faceKey = FaceKey(face)
            let key = SizedKey(face: faceKey, size: size, variations: variations, faceVariations: face.variations,
                               emboldened: face.emboldened)
            if let font = sizedFonts[key] { return font }
            let harfBuzzFace = try unlockedHarfBuzzFace(faceKey)
            let font = try ShapingFont(face: harfBuzzFace, size: size, variations: try FontVariations.merged(face.variations, variations),
                                       emboldened: face.emboldened)
            sizedFonts.insert(font, for: key)
            return font
        }
    }

    /// The SHA-256 (hex) of a font given as bytes, by its key (nil: `file` is a font file).
    package func digestOfFontGivenAsBytes(_ file: String) -> String? {
        memory.blobs[file].map { SHA256.hex(Array($0.bytes)) }
    }

    /// The bytes of `face`'s file, mapped once for HarfBuzz and FreeType alike.
    package func blob(of face: FontFace) throws -> FontBlob {
        try fontLock.withLock { try unlockedBlob(face.file) }
    }

    /// The HarfBuzz face of (file, index), made once; called under `fontLock`.
    private func unlockedHarfBuzzFace(_ key: FaceKey) throws -> HarfBuzzFace {
        if let known = harfBuzzFaces[key] { return known }
        let made = try HarfBuzzFace(blob: try unlockedBlob(key.file), index: key.index)
        harfBuzzFaces.insert(made, for: key)
        return made
    }

    private func unlockedBlob(_ file: String) throws -> FontBlob {
        if let blob = memory.blobs[file] ?? blobs[file] { return blob }
        let blob = try FontBlob(file: file, isolation: isolation)
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
        // A web font is queried from its decoded bytes (decoded where `isolation` says), so
        // Fontconfig's own FreeType never inflates it.
        let query = WebFont.isWebFont(file: path) ? try webFontQuery(path) : FcFreeTypeQuery(path, 0, nil, &count)
        guard let pattern = query else { throw TypesetError.notAFont(path) }
        defer { FcPatternDestroy(pattern) }
        guard let candidate = makeCandidate(pattern) else { throw TypesetError.notAFont(path) }
        return candidate
    }

    /// Fontconfig's description of a web font's first face, read from its decoded OpenType bytes.
    private func webFontQuery(_ path: String) throws -> OpaquePointer? {
        let blob = try fontLock.withLock { try unlockedBlob(path) }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw TypesetError.notAFont(path) }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Memory_Face(library, blob.bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(blob.bytes.count), 0, &face) == 0,
              let face else { throw TypesetError.notAFont(path) }
        defer { FT_Done_Face(face) }
        return withExtendedLifetime(blob) { FcFreeTypeQueryFace(face, path, 0, nil) }
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
        if spec.width != Int(FC_WIDTH_NORMAL) { FcPatternAddInteger(pattern, FC_WIDTH, Int32(spec.width)) }
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
        // (instance << 16 | face), and the font itself at the plain face index. An instance is
        // not a face HarfBuzz can open: it stands for the font, whose axes are then set from
        // the requested style (`FontCandidate.styled`), as Fontconfig's own match would.
        var variableFlag: FcBool = 0
        FcPatternGetBool(pattern, FC_VARIABLE, 0, &variableFlag)
        let isVariable = index >> 16 != 0 || variableFlag != 0
        var color: FcBool = 0
        FcPatternGetBool(pattern, FC_COLOR, 0, &color)
        let families = strings(pattern, FC_FAMILY)
        let face = FontFace(file: file, index: Int(index & 0xFFFF), family: families.first ?? "",
                            style: string(pattern, FC_STYLE) ?? "", isColor: color != 0)
        var spacing: Int32 = 0, slant: Int32 = 0
        var weight = Double(FC_WEIGHT_REGULAR), width = Double(FC_WIDTH_NORMAL)
        FcPatternGetInteger(pattern, FC_SPACING, 0, &spacing)
        FcPatternGetInteger(pattern, FC_SLANT, 0, &slant)
        FcPatternGetDouble(pattern, FC_WEIGHT, 0, &weight)
        FcPatternGetDouble(pattern, FC_WIDTH, 0, &width)
        var candidate = FontCandidate(face: face, families: families, charset: charset(of: FaceKey(face), in: pattern),
                                      isMonospace: spacing == FC_MONO)
        (candidate.weight, candidate.slant, candidate.width) = (weight, Int(slant), width)
        if isVariable { candidate.variable = variableFace(face) }
        return candidate
    }

    /// A variable face's axes and named instances, from the HarfBuzz face shaping uses (one
    /// mapping and parse of the file; nil: no axes, or a file HarfBuzz cannot open).
    func variableFace(_ face: FontFace) -> VariableFace? {
        fontLock.withLock { (try? unlockedHarfBuzzFace(FaceKey(face))).flatMap(\.variableFace) }
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
