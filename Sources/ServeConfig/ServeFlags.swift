import Flags
import Support

extension ServeSettings {
    /// The service's flags, one per option of the table: a boolean is a switch.
    public static var flagSpecs: [FlagSpec] {
        options.map { option in
            FlagSpec(name: option.name, kind: option.schemaType == "boolean" ? .flag : .repeated,
                     valueName: option.valueName, help: option.help)
        }
    }

    /// What `hlrender serve` is, for its help page.
    public static let commandInfo = CommandInfo(
        name: "serve",
        abstract: "An HTTP render service: POST /v1/card, GET /v1/templates/NAME.png, POST /v1/compare, /healthz, /readyz, /metrics.",
        discussion: "Stops accepting on SIGTERM or SIGINT, finishes what is in flight and exits 0.")

    /// The flags as given through the table: parsing, ranges and wording live there once. The
    /// concurrency defaults to the cores, the queue to 8 per worker.
    public static func from(flags given: [(name: String, value: String)], cores: Int) throws -> ServeSettings {
        var settings = ServeSettings()
        settings.concurrency = cores
        for (name, value) in given {
            do {
                try options.named(name)!.apply(.text(value), to: &settings)
            } catch let error as OptionError {
                throw OptionError("--\(name): \(error.message)")
            }
        }
        if !given.contains(where: { $0.name == "queue" }) { settings.queue = 8 * settings.concurrency }
        return settings
    }
}

/// The service's command line: every flag from the option table.
public struct ServeFlags: FlagGroup {
    @FlagList(ServeSettings.flagSpecs) public var given: [(name: String, value: String)]
    public init() {}
}
