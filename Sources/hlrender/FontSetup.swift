import Card
import Render
import Typeset

/// The run's font library: --font-dir folders, then the pinned fonts, then (unless turned
/// off) the system's.
enum FontSetup {
    static func defaultDirectories() -> [String] { PinnedFonts.directories() }

    /// The run's one font context: the library and the faces drawn from it.
    static func fonts(extraDirectories: [String], systemFonts: Bool) throws -> FontContext {
        try FontContext(library: try library(extraDirectories: extraDirectories, systemFonts: systemFonts))
    }

    static func library(extraDirectories: [String], systemFonts: Bool) throws -> FontLibrary {
        // The library checks each folder (missing, not a folder, not a folder of fonts).
        return try FontLibrary(directories: extraDirectories + defaultDirectories(), includeSystemFonts: systemFonts)
    }
}
