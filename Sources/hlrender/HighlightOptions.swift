import ArgumentParser
import Card
import Render

/// Options of the story-style highlight behind the lines and the text effects; parsed and
/// checked by the shared option table (`OptionModel`), as card keys are.
struct HighlightOptions: ParsableArguments {
    @Option(help: modelHelp("highlight")) var highlight: String?
    @Option(help: modelHelp("highlight-style")) var highlightStyle: String?
    @Option(help: modelHelp("outline-color")) var outlineColor: String?
    @Option(help: modelHelp("outline-width")) var outlineWidth: String?
    @Option(help: modelHelp("padding")) var padding: String?
    @Option(help: modelHelp("radius")) var radius: String?
    @Option(help: modelHelp("join")) var join: String?
    @Option(help: modelHelp("shadow")) var shadow: String?
    @Option(help: modelHelp("stroke")) var stroke: String?

    func apply(to settings: inout BlockSettings) throws {
        try applyFlags([("highlight", highlight), ("highlight-style", highlightStyle), ("outline-color", outlineColor),
                        ("outline-width", outlineWidth), ("padding", padding), ("radius", radius), ("join", join),
                        ("shadow", shadow), ("stroke", stroke)], to: &settings)
    }
}
