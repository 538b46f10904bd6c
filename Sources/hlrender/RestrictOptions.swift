import ArgumentParser
import Render
import Typeset

enum RestrictMode: String, CaseIterable, ExpressibleByArgument {
    /// Hidden lines are drawn with substitute glyphs before the blur: nothing to deblur.
    case scramble
    /// Hidden lines keep their real glyphs under the blur (not for secrets).
    case blur
}

/// Restricted-content mode: the first N lines readable, the rest blurred.
struct RestrictOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Keep the first N lines readable and blur the rest (restricted-content mode).", valueName: "n"))
    var visibleLines: Int?
    @Option(help: ArgumentHelp("""
        Blur strength: Gaussian standard deviation in px at scale 1 (default 11, scaled with --scale). \
        It is raised to at least 0.15 x the font size so large text stays unreadable; at most 200.
        """, valueName: "px"))
    var blurRadius: Double?
    @Option(help: "scramble (default: substitute glyphs, nothing to deblur) or blur (real glyphs under the blur).")
    var restrictMode: RestrictMode?
    @Option(help: ArgumentHelp("Height in px over which sharp turns into blurred (default 4).", valueName: "px"))
    var feather: Double?
    @Option(help: ArgumentHelp("""
        Seed for the substitute glyphs (default: random per render). Fixed, the hidden part's \
        pixels repeat for the same text, which golden tests need, but which lets someone who \
        knows the seed test guesses of the hidden text against the image.
        """, valueName: "n"))
    var scrambleSeed: UInt64?

    /// The seed for this render: the given one, else a fresh random one.
    var seed: UInt64 { scrambleSeed ?? ScrambleSeed.random() }

    func restriction() throws -> (Restriction, RestrictMode)? {
        guard let visibleLines else {
            if blurRadius != nil || restrictMode != nil || feather != nil || scrambleSeed != nil {
                throw CLIFailure(message: "--blur-radius, --restrict-mode, --feather and --scramble-seed need --visible-lines")
            }
            return nil
        }
        guard visibleLines >= 0 else { throw CLIFailure(message: "--visible-lines must be 0 or more, got \(visibleLines)") }
        let sigma = blurRadius ?? 11
        guard sigma.isFinite, sigma >= 0 else {
            throw CLIFailure(message: "--blur-radius must be 0 or more, got \(sigma)")
        }
        guard sigma <= Restriction.maxSigma else {
            throw CLIFailure(message: "--blur-radius \(sigma) is over the maximum of \(Int(Restriction.maxSigma)) px")
        }
        let feather = self.feather ?? 4
        guard feather.isFinite, feather >= 0 else { throw CLIFailure(message: "--feather must be 0 or more, got \(feather)") }
        return (Restriction(visibleLines: visibleLines, sigma: sigma, feather: feather), restrictMode ?? .scramble)
    }
}
