import ArgumentParser
import Card
import Render
import Typeset

/// Restricted-content mode: the first N lines readable, the rest blurred; parsed and checked
/// by the shared option table.
struct RestrictOptions: ParsableArguments {
    @Option(help: modelHelp("visible-lines")) var visibleLines: String?
    @Option(help: modelHelp("blur-radius")) var blurRadius: String?
    @Option(help: modelHelp("restrict-mode")) var restrictMode: String?
    @Option(help: modelHelp("feather")) var feather: String?
    @Option(help: modelHelp("scramble-seed")) var scrambleSeed: String?

    func apply(to settings: inout BlockSettings) throws {
        // Each value is checked first; then whether they make sense together.
        try applyFlags([("visible-lines", visibleLines), ("blur-radius", blurRadius), ("restrict-mode", restrictMode),
                        ("feather", feather), ("scramble-seed", scrambleSeed)], to: &settings)
        if visibleLines == nil, blurRadius != nil || restrictMode != nil || feather != nil || scrambleSeed != nil {
            throw CLIFailure(message: "--blur-radius, --restrict-mode, --feather and --scramble-seed need --visible-lines")
        }
    }
}
