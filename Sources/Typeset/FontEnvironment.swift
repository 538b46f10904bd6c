import Support
/// Where a font library's files come from, chosen by the caller (the CLI and the service read
/// their flags and the process environment; a library caller names its own folders): the
/// pinned font folders, Fontconfig's cache and the hyphenation dictionaries. Typeset itself
/// reads no environment variable and no path of its own.
package struct FontEnvironment: Sendable {
    /// Folders of pinned fonts, searched before any system font.
    package var pinnedDirectories: [String]
    /// Fonts given as bytes, pinned after the folders' fonts.
    package var fontData: [FontData] = []
    /// Where Fontconfig may cache its scan of the pinned folders (nil: scanned every time).
    package var cacheDirectory: String?
    /// The hyphenation dictionaries, shared by every library made from this environment.
    package var hyphenation: Hyphenation

    /// An environment of these folders.
    package init(pinnedDirectories: [String], cacheDirectory: String? = nil,
                hyphenation: Hyphenation = Hyphenation()) {
        self.pinnedDirectories = pinnedDirectories
        self.cacheDirectory = cacheDirectory
        self.hyphenation = hyphenation
    }

    /// A font library over `extraDirectories` (first), then the pinned folders, then (when
    /// `systemFonts`) the system's fonts.
    /// `strictFamilies`: a family that is not installed is refused, never substituted.
    package func library(extraDirectories: [String] = [], systemFonts: Bool, strictFamilies: Bool = false,
                         isolation: Isolation = .inProcess) throws -> FontLibrary {
        try FontLibrary(directories: extraDirectories + pinnedDirectories, includeSystemFonts: systemFonts,
                        cacheDirectory: cacheDirectory, hyphenation: hyphenation, strictFamilies: strictFamilies, isolation: isolation,
                        fontData: fontData)
    }
}
