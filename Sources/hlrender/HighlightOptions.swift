import Flags
import Card
import Render

/// Options of the story-style highlight behind the lines and the text effects; parsed and
/// checked by the shared option table (`OptionModel`), as card keys are.
struct HighlightOptions: FlagGroup {
    @FlagList(modelFlags(["highlight", "highlight-style", "outline-color", "outline-width", "padding", "radius", "join",
                          "shadow", "stroke"]))
    var given: GivenFlags

    func apply(to settings: inout BlockSettings) throws { try applyFlags(given, to: &settings) }
}
