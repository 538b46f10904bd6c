import Flags
import Card
import Render

/// Options of the story-style highlight behind the lines and the text effects; parsed and
/// checked by the shared option table (`OptionModel`), as card keys are.
struct HighlightOptions: FlagGroup {
    @Option("highlight", help: modelHelp("highlight")) var highlight: String?
    @Option("highlight-style", help: modelHelp("highlight-style")) var highlightStyle: String?
    @Option("outline-color", help: modelHelp("outline-color")) var outlineColor: String?
    @Option("outline-width", help: modelHelp("outline-width")) var outlineWidth: String?
    @Option("padding", help: modelHelp("padding")) var padding: String?
    @Option("radius", help: modelHelp("radius")) var radius: String?
    @Option("join", help: modelHelp("join")) var join: String?
    @Option("shadow", help: modelHelp("shadow")) var shadow: String?
    @Option("stroke", help: modelHelp("stroke")) var stroke: String?

    func apply(to settings: inout BlockSettings) throws {
        try applyFlags([("highlight", highlight), ("highlight-style", highlightStyle), ("outline-color", outlineColor),
                        ("outline-width", outlineWidth), ("padding", padding), ("radius", radius), ("join", join),
                        ("shadow", shadow), ("stroke", stroke)], to: &settings)
    }
}
