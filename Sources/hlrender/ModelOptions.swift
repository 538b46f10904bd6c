import Flags
import Card
import Support

/// Help text from an option table, for a flag declared on its own (one the command also reads
/// itself), so it says what the card key or HTTP field says.
func modelHelp<T>(_ name: String, in table: [OptionDefinition<T>]) -> Help {
    guard let option = table.named(name) else { return Help("") }
    return Help(option.help, valueName: option.valueName)
}

/// Help text from the block option table.
func modelHelp(_ name: String) -> Help { modelHelp(name, in: OptionModel.all) }

/// The named block options as flags (`@FlagList`).
func modelFlags(_ names: [String]) -> [FlagSpec] { OptionModel.all.flagSpecs(names) }

/// Flags given as text through the block option table: parsing, defaults and validation live
/// there once; errors name the flag.
func applyFlags(_ given: GivenFlags, to settings: inout BlockSettings) throws {
    try OptionModel.all.apply(given, to: &settings)
}

/// The same for flags read one by one (nil: not given).
func applyFlags(_ flags: [(String, String?)], to settings: inout BlockSettings) throws {
    try applyFlags(GivenFlags(flags), to: &settings)
}
