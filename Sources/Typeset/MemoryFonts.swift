import CFontconfig
import CFreeType
import Support

/// A font given as bytes (a program's own, one read from a store or a database) instead of
/// as a file in a folder: it is never written anywhere and never opened by name.
package struct FontData: Sendable, Hashable {
    /// What messages and the layout dump call the font (its file name, say).
    package var name: String
    /// The font's bytes: OpenType (TTF, OTF, a TTC collection), WOFF or WOFF2.
    package var bytes: [UInt8]

    /// A font called `name` in messages, of these bytes.
    package init(name: String, bytes: [UInt8]) {
        (self.name, self.bytes) = (name, bytes)
    }
}

extension FontData {
    /// What a face's `file` is shown as: the name a font given as bytes was given, or a font
    /// file's name without its folder (a service's paths are its own).
    package static func shownName(ofFile file: String) -> String {
        MemoryFonts.name(of: file) ?? String(file.split(separator: "/").last ?? "")
    }
}

/// Fonts given as bytes, described to Fontconfig as a folder scan would describe them: every
/// face and named instance queried from memory by Fontconfig's own FreeType query, so a font
/// picks, sorts and falls back exactly as the same file in a folder does. Each face's "file"
/// is a key (`bytes:N:name`) that names no file: shaping and drawing take its bytes from
/// here, never from the file system.
struct MemoryFonts {
    /// Each font's bytes, by key (decoded first when a web font).
    let blobs: [String: FontBlob]
    /// Fontconfig's description of each face, in the order given (owned here; every
    /// configuration is handed copies).
    private let patterns: [OpaquePointer]

    static var empty: MemoryFonts { MemoryFonts() }

    /// The key of the `number`th font (from 1), called `name`.
    private static func key(_ number: Int, _ name: String) -> String {
        "bytes:\(number):" + String(name.map { $0 == "/" ? "_" : $0 })
    }

    /// The name a font given as bytes was given, when `file` is the key of one.
    static func name(of file: String) -> String? {
        guard file.hasPrefix("bytes:") else { return nil }
        return file.split(separator: ":", maxSplits: 2).last.map(String.init)
    }

    private init() { (blobs, patterns) = ([:], []) }

    /// The fonts described; a web font decoded where `isolation` says. Throws naming the font
    /// that FreeType cannot read.
    init(_ fonts: [FontData], isolation: Isolation) throws {
        var blobs: [String: FontBlob] = [:]
        var patterns: [OpaquePointer] = []
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw TypesetError.fontconfig("cannot start FreeType") }
        defer { FT_Done_FreeType(library) }
        do {
            for (number, font) in fonts.enumerated() {
                // A name is shown, never opened: no separator may make the key look like a path.
                let key = Self.key(number + 1, font.name)
                let blob = try font.bytes.withUnsafeBytes { raw in
                    WebFont.isWebFont(raw) ? try FontBlob(bytes: try WebFontTasks.sfnt(raw, file: font.name, isolation: isolation), name: key)
                        : try FontBlob(bytes: font.bytes, name: key)
                }
                blobs[key] = blob
                patterns += try Self.describe(blob, key: key, name: font.name, library: library)
            }
        } catch {
            patterns.forEach { FcPatternDestroy($0) }
            throw error
        }
        (self.blobs, self.patterns) = (blobs, patterns)
    }

    /// Adds a copy of every face's description to `config`'s fonts (built already).
    func add(to config: OpaquePointer) throws {
        guard !patterns.isEmpty else { return }
        guard let set = FcConfigGetFonts(config, FcSetSystem) else { throw TypesetError.fontconfig("a configuration without fonts") }
        for pattern in patterns {
            guard let copy = FcPatternDuplicate(pattern) else { throw TypesetError.fontconfig("out of memory") }
            guard FcFontSetAdd(set, copy) != 0 else {
                FcPatternDestroy(copy)
                throw TypesetError.fontconfig("out of memory")
            }
        }
    }

    /// Frees the descriptions (the library's deinit: the configurations hold their copies).
    func release() { patterns.forEach { FcPatternDestroy($0) } }

    /// The descriptions Fontconfig's folder scan makes of a file (`FcFreeTypeQueryAll`): for
    /// each face, its default instance, each named instance, and the variable font itself.
    private static func describe(_ blob: FontBlob, key: String, name: String, library: FT_Library) throws -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        var faceCount = 1, face = 0
        while face < faceCount {
            let plain = try open(blob, id: face, name: name, library: library)
            defer { FT_Done_Face(plain) }
            faceCount = plain.pointee.num_faces
            let instances = Int(plain.pointee.style_flags >> 16)
            // The default instance, each named instance (its own face), then the variable font
            // itself (the plain face, described as Fontconfig's instance 0x8000).
            if let pattern = FcFreeTypeQueryFace(plain, key, UInt32(face), nil) { found.append(pattern) }
            for instance in instances > 0 ? Array(1...instances) : [] {
                let id = instance << 16 | face
                let opened = try open(blob, id: id, name: name, library: library)
                defer { FT_Done_Face(opened) }
                if let pattern = FcFreeTypeQueryFace(opened, key, UInt32(id), nil) { found.append(pattern) }
            }
            if instances > 0, let pattern = FcFreeTypeQueryFace(plain, key, UInt32(0x8000 << 16 | face), nil) { found.append(pattern) }
            face += 1
        }
        guard !found.isEmpty else { throw TypesetError.notAFont(name) }
        return found
    }

    private static func open(_ blob: FontBlob, id: Int, name: String, library: FT_Library) throws -> FT_Face {
        var face: FT_Face?
        guard FT_New_Memory_Face(library, blob.bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(blob.bytes.count),
                                 FT_Long(id), &face) == 0, let face else { throw TypesetError.notAFont(name) }
        return face
    }
}
