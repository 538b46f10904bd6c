import Flags
import Card
import Render
import Typeset

/// Restricted-content mode: the first N lines readable, the rest blurred; parsed and checked
/// by the shared option table.
struct RestrictOptions: FlagGroup {
    @Option("visible-lines", help: modelHelp("visible-lines")) var visibleLines: String?
    @Option("blur-radius", help: modelHelp("blur-radius")) var blurRadius: String?
    @Option("restrict-mode", help: modelHelp("restrict-mode")) var restrictMode: String?
    @Option("feather", help: modelHelp("feather")) var feather: String?
    @Option("scramble-seed", help: modelHelp("scramble-seed")) var scrambleSeed: String?

    func apply(to settings: inout BlockSettings) throws {
        // Each value is checked first; then whether they make sense together.
        try applyFlags([("visible-lines", visibleLines), ("blur-radius", blurRadius), ("restrict-mode", restrictMode),
                        ("feather", feather), ("scramble-seed", scrambleSeed)], to: &settings)
        if visibleLines == nil, blurRadius != nil || restrictMode != nil || feather != nil || scrambleSeed != nil {
            throw CLIFailure(message: "--blur-radius, --restrict-mode, --feather and --scramble-seed need --visible-lines")
        }
    }
}
