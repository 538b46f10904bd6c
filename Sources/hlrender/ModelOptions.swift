import Flags
import Card
import Support

/// Help text from an option table, so a flag says what the card key or HTTP field says.
func modelHelp<T>(_ name: String, in table: [OptionDefinition<T>]) -> Help {
    guard let option = table.named(name) else { return Help("") }
    return Help(option.help, valueName: option.valueName)
}

/// Help text from the block option table.
func modelHelp(_ name: String) -> Help {
    guard let option = OptionModel.named(name) else { return Help("") }
    return Help(option.help, valueName: option.valueName)
}

/// Applies flags given as text through an option table: parsing, defaults and validation live
/// there once; errors name the flag.
func applyFlags<T>(_ flags: [(String, String?)], to target: inout T, table: [OptionDefinition<T>]) throws {
    for case let (name, value?) in flags {
        do {
            try table.named(name)!.apply(.text(value), to: &target)
        } catch let error as OptionError {
            throw CLIFailure(message: "--\(name): \(error.message)")
        }
    }
}

/// The same through the block option table.
func applyFlags(_ flags: [(String, String?)], to settings: inout BlockSettings) throws {
    try applyFlags(flags, to: &settings, table: OptionModel.all)
}
