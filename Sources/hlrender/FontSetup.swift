import FoundationEssentials
import Card
import Typeset

/// The run's font library: --font-dir folders, then the pinned fonts, then (unless turned
/// off) the system's.
enum FontSetup {
    static func defaultDirectories() -> [String] { PinnedFonts.directories() }

    static func library(extraDirectories: [String], systemFonts: Bool) throws -> FontLibrary {
        for folder in extraDirectories where !FileManager.default.fileExists(atPath: folder) {
            throw CLIFailure(message: "font folder '\(folder)' does not exist")
        }
        return try FontLibrary(directories: extraDirectories + defaultDirectories(), includeSystemFonts: systemFonts)
    }
}
