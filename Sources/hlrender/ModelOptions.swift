import ArgumentParser
import Card

/// Help text from the shared option table, so a flag says what the card key says.
func modelHelp(_ name: String) -> ArgumentHelp {
    guard let option = OptionModel.named(name) else { return ArgumentHelp("") }
    return ArgumentHelp(option.help, valueName: option.valueName)
}

/// Applies flags given as text through the shared option table: parsing, defaults and
/// validation live there once; errors name the flag.
func applyFlags(_ flags: [(String, String?)], to settings: inout BlockSettings) throws {
    for case let (name, value?) in flags {
        do {
            try OptionModel.named(name)!.apply(.text(value), to: &settings)
        } catch let error as OptionError {
            throw CLIFailure(message: "--\(name): \(error.message)")
        }
    }
}
