import Flags
import Support

/// The service's command line: one flag per option of its table. `hlrender-serve` parses it;
/// `hlrender serve --help` prints its page without the service binary.
package struct ServeFlags: FlagGroup {
    package static let info = CommandInfo(
        name: "serve",
        abstract: "An HTTP render service: POST /v1/card, GET /v1/templates/NAME.png, POST /v1/compare, /healthz, /readyz, /metrics.",
        discussion: "Stops accepting on SIGTERM or SIGINT, finishes what is in flight and exits 0.")

    @FlagList(ServeSettings.options.map(\.flagSpec)) package var given: GivenFlags

    package init() {}

    /// The help page, with `note` after the description.
    package static func helpPage(note: String = "", columns: Int) -> String {
        var info = info
        if !note.isEmpty { info.discussion += " " + note }
        return HelpText.page(info, specs: flagSpecs, program: "hlrender", columns: columns)
    }

    /// The settings the flags give, through the table: parsing, ranges and wording live there
    /// once. The concurrency defaults to the cores, the queue to 8 per worker.
    package func settings(cores: Int) throws(FlagError) -> ServeSettings {
        var settings = ServeSettings()
        settings.concurrency = cores
        try ServeSettings.options.apply(given, to: &settings)
        if !given.contains("queue") { settings.queue = 8 * settings.concurrency }
        return settings
    }
}
