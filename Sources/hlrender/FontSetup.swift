import Flags
import Host
import Render
import Support
import Typeset

/// The run's font library: --font-dir folders, then the pinned fonts (found by `Host`), then
/// (unless turned off) the system's.
enum FontSetup {
    /// The process's fonts and dictionaries, found once.
    static func environment() throws -> FontEnvironment {
        do {
            let pinned = try Host.pinnedFontDirectories()
            Host.danglingFontWarnings(in: pinned).forEach(warn)
            return FontEnvironment(pinnedDirectories: pinned, cacheDirectory: Host.cacheDirectory(), hyphenation: hyphenation)
        } catch {
            throw CLIFailure(message: error.message)
        }
    }

    /// The dictionaries (HLRENDER_HYPHEN_DIR, else Debian's folder), loaded once per run.
    static let hyphenation = Hyphenation(folders: Host.hyphenationFolders())

    /// The run's one font context: the library and the faces drawn from it.
    static func fonts(extraDirectories: [String], systemFonts: Bool, strict: Bool, prefetchFaces: Bool,
                      isolation: Isolation = .inProcess) throws -> FontContext {
        try FontContext(library: try library(extraDirectories: extraDirectories, systemFonts: systemFonts, strict: strict, isolation: isolation),
                        prefetchFaces: prefetchFaces)
    }

    /// The library says once on stderr where it substituted a family or synthesised a style.
    static func library(extraDirectories: [String], systemFonts: Bool, strict: Bool, isolation: Isolation = .inProcess) throws -> FontLibrary {
        // The library checks each folder (missing, not a folder, not a folder of fonts).
        let library = try environment().library(extraDirectories: extraDirectories, systemFonts: systemFonts, strictFamilies: strict,
                                                isolation: isolation)
        library.notices.observe { warn($0) }
        return library
    }
}

/// Where a run's fonts come from, for every command that lays out text (and `fonts`, which
/// lists them).
struct FontFolderFlags: FlagGroup {
    @Option("font-dir", help: Help("A folder of fonts to load before the pinned ones (repeatable).", valueName: "dir"))
    var fontDir: [String] = []
    @Flag("no-system-fonts", help: "Use only the pinned fonts (and --font-dir), not the system's.") var noSystemFonts = false
    @Flag("font-strict", help: "Refuse a font family that is not installed instead of taking Fontconfig's substitute.")
    var fontStrict = false

    /// The run's font context; `systemFonts` false leaves the system's out whatever the flag.
    /// `prefetchFaces`: a one-shot command (see `RenderOptions.oneShot`).
    /// `isolation`: where web fonts a spec names are decoded.
    func fonts(systemFonts: Bool = true, prefetchFaces: Bool = false, isolation: Isolation = .inProcess) throws -> FontContext {
        try FontSetup.fonts(extraDirectories: fontDir, systemFonts: systemFonts && !noSystemFonts, strict: fontStrict,
                            prefetchFaces: prefetchFaces, isolation: isolation)
    }

    /// The run's font library alone (listing families).
    func library() throws -> FontLibrary {
        try FontSetup.library(extraDirectories: fontDir, systemFonts: !noSystemFonts, strict: fontStrict)
    }
}
