import Flags
import Support

/// `--link-schemes`, through the one definition (LinkSchemes.options): the run's policy for
/// the links its texts carry.
struct LinkSchemeFlags: FlagGroup {
    @FlagList(LinkSchemes.options.flagSpecs(["link-schemes"])) var given: GivenFlags

    /// The defaults and what the flag added; a refused scheme names the flag.
    func schemes() throws -> LinkSchemes {
        var schemes = LinkSchemes()
        try LinkSchemes.options.apply(given, to: &schemes)
        return schemes
    }
}
