import Flags
import Render
import Support

/// The program: its commands (render by default), help and version.
enum HLRender {
    static let version = HLRenderVersion.current

    static let tree = CommandTree(
        name: "hlrender",
        abstract: "Render decorated text, cards and batches of cards to PNG, JPEG, WebP, SVG or PDF.",
        discussion: """
            Exit status: 0 success; 1 images differ (compare, --expect); 2 image sizes differ; \
            3 bad input or failure (one line on stderr names it).
            """,
        version: version,
        versionDetails: { (LibraryVersions.all + LibraryVersions.encoders).map { "  \($0.name) \($0.version)\n" }.joined() },
        commands: [RenderCommand.self, StepsCommand.self, CardCommand.self, BatchCommand.self, CompareCommand.self, ServeCommand.self, FontsCommand.self, OptionsCommand.self,
                   CompletionsCommand.self],
        defaultCommand: RenderCommand.self)
}
