import Flags
import Card
import Render
import Typeset

/// Restricted-content mode: the first N lines readable, the rest blurred; parsed and checked
/// by the shared option table.
struct RestrictOptions: FlagGroup {
    @FlagList(modelFlags(["visible-lines", "blur-radius", "restrict-mode", "feather", "scramble-seed"]))
    var given: GivenFlags

    func apply(to settings: inout BlockSettings) throws {
        // Each value is checked first; then whether they make sense together.
        try applyFlags(given, to: &settings)
        if !given.isEmpty && !given.contains("visible-lines") {
            throw CLIFailure(message: "--blur-radius, --restrict-mode, --feather and --scramble-seed need --visible-lines")
        }
    }
}
