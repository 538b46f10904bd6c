import Host
import Render
import Typeset

/// The run's font library: --font-dir folders, then the pinned fonts (found by `Host`), then
/// (unless turned off) the system's.
enum FontSetup {
    /// The process's fonts and dictionaries, found once.
    static func environment() throws -> FontEnvironment {
        do {
            return FontEnvironment(pinnedDirectories: try Host.pinnedFontDirectories(), cacheDirectory: Host.cacheDirectory(),
                                   hyphenation: hyphenation)
        } catch {
            throw CLIFailure(message: error.message)
        }
    }

    /// The dictionaries (HLRENDER_HYPHEN_DIR, else Debian's folder), loaded once per run.
    static let hyphenation = Hyphenation(folders: Host.hyphenationFolders())

    /// The run's one font context: the library and the faces drawn from it.
    static func fonts(extraDirectories: [String], systemFonts: Bool) throws -> FontContext {
        try FontContext(library: try library(extraDirectories: extraDirectories, systemFonts: systemFonts))
    }

    static func library(extraDirectories: [String], systemFonts: Bool) throws -> FontLibrary {
        // The library checks each folder (missing, not a folder, not a folder of fonts).
        try environment().library(extraDirectories: extraDirectories, systemFonts: systemFonts)
    }
}
