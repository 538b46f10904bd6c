import Card
import Glibc
import Render
import Support
import Typeset
import Worker

/// Everything the renderer takes from the world, chosen by its caller (typst's `World` is the
/// model): the font folders, Fontconfig's cache, hyphenation dictionaries, how files named in a
/// spec are read, the temporary folder, the clock and the random source. HLRenderKit reads no
/// environment variable, no `argv` and no path of its own: two renderers made from two
/// environments in one process share nothing a caller did not give them both.
public struct RenderEnvironment: Sendable {
    /// Folders of fonts, searched in order before any system font. hlrender's own pinned fonts
    /// (Noto Sans and friends, the `fonts/` folder of its repository) are what cards name by
    /// default.
    public var fontDirectories: [String]
    /// Fonts given as bytes (no folder, nothing written anywhere), pinned after the folders'
    /// fonts: they pick, sort and fall back as the same files in a folder would.
    public var fonts: [FontBytes] = []
    /// Also fall back to the system's Fontconfig fonts (off: renders depend only on the folders).
    public var systemFonts: Bool
    /// Refuse a font family that is not installed (`HLRenderError` of kind `.input`) instead of
    /// drawing Fontconfig's substitute for it (with system fonts on; without them a family the
    /// folders lack is always refused).
    public var strictFontFamilies = false
    /// Told once of each font note of the renderer (a family substituted, a style synthesised),
    /// on the rendering thread; it must return at once. Nil: the notes are dropped.
    public var fontNotes: (@Sendable (String) -> Void)?
    /// Where Fontconfig caches its scan of `fontDirectories` (nil: scanned on each start, and
    /// Fontconfig prints that it has nowhere to write).
    public var fontCacheDirectory: String?
    /// Folders of libhyphen dictionaries (`hyph_en_US.dic`), for the `hyphenate` option.
    public var hyphenationDirectories: [String]
    /// Where long documents spool their laid-out lines.
    public var temporaryDirectory: String
    /// Reads a file a spec names (a picture, a font file, a text file); paths arrive resolved
    /// against the spec's folder. The default reads regular files only, up to 64 MiB; a service
    /// confines it to an assets folder.
    public var readFile: @Sendable (String) throws -> [UInt8]
    /// Whether a path a spec gives as its font names a file (else the value is a font name,
    /// "Inter Bold"). The default asks the file system; a caller whose `readFile` serves files
    /// from elsewhere answers for them (font files themselves are still opened by name).
    public var isFile: @Sendable (String) -> Bool
    /// A file's identity: any text that changes when the file does. What is decoded from a
    /// file (a picture) is kept between renders under it; nil keeps nothing, so the file is
    /// read again each time. The default asks the file system (device, inode, size, times); a
    /// caller whose `readFile` serves files from elsewhere gives their version, or nil.
    public var fileIdentity: @Sendable (String) -> String?
    /// Writes a file whole (a golden `checkGolden` records): the default writes a temporary
    /// file beside `path` and renames it over, so a reader never sees half a file.
    public var writeFile: @Sendable (String, [UInt8]) throws -> Void
    /// Checks a font file a spec or a page option names (`"font": "fonts/x.ttf"`) before it is
    /// opened; throw to refuse it. Font files are opened by FreeType, not through `readFile`,
    /// so a caller that confines `readFile` to a folder confines this too. The default takes
    /// any path (FreeType opens regular files only).
    public var checkFontFile: @Sendable (String) throws -> Void
    /// The largest canvas or picture taken, in pixels.
    public var maxPixels: Int
    /// Seconds since 1970 for PDF creation dates (a fixed value makes PDFs byte-reproducible).
    public var clock: @Sendable () -> Int64
    /// The random source for scrambled restricted text when a spec gives no `scramble-seed`.
    public var random: @Sendable () -> UInt64
    /// URI schemes links may use besides `http`, `https`, `mailto` and `#name` (`tel`, say):
    /// the caller's trust decision, never a spec's. `javascript` and `vbscript` are refused
    /// when the renderer is made.
    public var extraLinkSchemes: Set<String> = []
    /// A program that decodes SVG pictures and web fonts (librsvg, FreeType's WOFF and WOFF2
    /// decoders) in a process of its own, limited in CPU time and address space; nil decodes
    /// them in this process. The `hlrender` binary answers (give its path), as does any program
    /// that calls `HLRenderer.answerDecoderCall(_:)` first thing in its `main`. A caller rendering
    /// files it does not trust sets this: a crash, a hang or a bomb in a decoder then fails that
    /// one render (`HLRenderError` of kind `.input`), not the caller's process.
    public var decoderWorker: String?
    /// CPU seconds a decoder worker may spend on one picture or font (at least 1).
    public var decoderSeconds = 30

    /// An environment over `fontDirectories`, with the system's fonts off, the font cache in
    /// /tmp/hlrender-fontconfig, Debian's hyphenation folder, /tmp, bounded regular-file reads,
    /// the system clock and the system's random generator.
    public init(fontDirectories: [String], systemFonts: Bool = false, fontCacheDirectory: String? = "/tmp/hlrender-fontconfig",
                hyphenationDirectories: [String] = ["/usr/share/hyphen"], temporaryDirectory: String = "/tmp",
                maxPixels: Int = 100_000_000) {
        self.fontDirectories = fontDirectories
        self.systemFonts = systemFonts
        self.fontCacheDirectory = fontCacheDirectory
        self.hyphenationDirectories = hyphenationDirectories
        self.temporaryDirectory = temporaryDirectory
        self.maxPixels = maxPixels
        readFile = { path in
            do {
                return try Posix.readFile(path, as: "file", limit: 64 << 20)
            } catch {
                // Told apart from a file that cannot be read: a golden not recorded yet.
                if Posix.kind(path) == .missing { throw FileNotFound(path: path) }
                throw error
            }
        }
        writeFile = { path, bytes in try OutputFile.write(bytes, to: path) }
        isFile = World.diskIsRegularFile
        fileIdentity = World.diskFileIdentity
        checkFontFile = { _ in }
        clock = { Int64(time(nil)) }
        random = { UInt64.random(in: 0...UInt64.max) }
    }

    /// What `readFile` throws for a path where no file is (the default does; a caller's own
    /// `readFile` throws it so that `checkGolden` can tell a golden not recorded yet).
    public struct FileNotFound: Error, Sendable, CustomStringConvertible {
        /// The path read.
        public var path: String
        /// A value for `path`.
        public init(path: String) { self.path = path }
        /// "no file at PATH".
        public var description: String { "no file at \(path)" }
    }

    /// The fonts part, as Typeset takes it.
    var fontEnvironment: FontEnvironment {
        var fonts = FontEnvironment(pinnedDirectories: fontDirectories, cacheDirectory: fontCacheDirectory,
                                    hyphenation: Hyphenation(folders: hyphenationDirectories))
        fonts.fontData = self.fonts.map { FontData(name: $0.name, bytes: $0.bytes) }
        return fonts
    }

    /// The engine's world this environment describes: its fonts loaded, its link policy checked.
    func world() throws(HLRenderError) -> World {
        var links = LinkSchemes()
        do {
            try LinkSchemes.linkSchemesRow.apply(.json(.array(extraLinkSchemes.sorted().map(JSONValue.string))), to: &links)
        } catch {
            throw HLRenderError(.input, path: "extraLinkSchemes", "\(error)")
        }
        do {
            let isolation = decoderWorker.map { DecoderWorker(executable: $0, seconds: decoderSeconds).isolation } ?? .inProcess
            let library = try fontEnvironment.library(systemFonts: systemFonts, strictFamilies: strictFontFamilies, isolation: isolation)
            if let fontNotes { library.notices.observe(fontNotes) }
            var world = World(fonts: try FontContext(library: library), maxPixels: maxPixels, readFile: readFile)
            world.random = random
            world.clock = clock
            world.checkFontFile = checkFontFile
            (world.isRegularFile, world.fileIdentity) = (isFile, fileIdentity)
            world.linkSchemes = links
            world.isolation = isolation
            return world
        } catch let error as TypesetError where fonts.contains(where: { error.names($0.name) }) {
            // A font the caller gave as bytes is input, as a spec's font file is.
            throw HLRenderError(.input, path: "fonts", "\(error)")
        } catch {
            throw HLRenderError(.system, "fonts: \(error)")
        }
    }
}

/// A font given to a renderer as bytes (`RenderEnvironment.fonts`): a brand font kept in a
/// database or an asset catalogue, say. OpenType (TTF, OTF, TTC), WOFF or WOFF2.
public struct FontBytes: Sendable, Hashable {
    /// What messages and the layout report call the font (its file name, say); never opened.
    public var name: String
    /// The font's bytes.
    public var bytes: [UInt8]

    /// A font called `name`, of `bytes`.
    public init(name: String, bytes: [UInt8]) {
        (self.name, self.bytes) = (name, bytes)
    }
}
