import PinnedFonts

extension RenderEnvironment {
    /// An environment over hlrender's pinned fonts (Noto Sans, Arabic, Devanagari, CJK subset,
    /// Mono, Color Emoji and Inter; SIL Open Font License), the fonts the `hlrender` CLI renders
    /// with, so a card renders byte for byte as `hlrender card --no-system-fonts` draws it. The
    /// fonts come with the package: SwiftPM copies them into `hlrender_PinnedFonts.resources`
    /// beside the program it builds, and a program installed elsewhere takes that folder along.
    /// `moreFontDirectories` are searched first, as the CLI's `--font-dir` folders are. Throws an
    /// `HLRenderError` of kind `.system` naming where the fonts were looked for when they are
    /// missing.
    public static func pinned(moreFontDirectories: [String] = [], systemFonts: Bool = false) throws(HLRenderError) -> RenderEnvironment {
        do {
            return RenderEnvironment(fontDirectories: moreFontDirectories + [try PinnedFonts.folder()], systemFonts: systemFonts)
        } catch {
            throw HLRenderError(.system, error.description)
        }
    }
}
