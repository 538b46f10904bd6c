import Flags
import Batch
import Card
import FoundationEssentials
import Glibc
import Motion
import Render
import Typeset
import Support

struct CardCommand: Command {
    static let info = CommandInfo(
        name: "card",
        abstract: "Render a card from a JSON spec: a background and text, steps, image and stack blocks.",
        discussion: """
            Text and steps blocks take the long option names of `hlrender render` and `steps` as \
            keys; card-level keys of those names are defaults for every block. {{name}} in a \
            string is filled from --var. Relative paths resolve against the spec's folder. \
            The JSON Schema is schema/card.schema.json. Exit status: 0 success, 3 bad input or failure.
            """,
        examples: [
            "hlrender card examples/headline-gradient.json -o headline.png",
            "hlrender card examples/rich-card.json --var \"name=Ana\" --var 'price=$9.99' -o rich.pdf",
        ])

    @Argument(help: Help("The card spec (JSON), or - for standard input; several with --pdf (a page each).", valueName: "spec.json"))
    var specs: [String] = []
    @Flag("schema", help: "Print the spec's JSON Schema and exit.") var schema = false
    @Option("var", help: Help("Fill {{name}} with a value (repeatable).", valueName: "name=value"))
    var variables: [String] = []
    @Group var target: OutputTarget
    @Group var runOptions: CardRunOptions
    @Group("Animation") var animation: AnimationFlags

    var output: String? { target.output }
    var format: OutputFormat? { target.format }
    var dumpLayout: String? { target.dumpLayout }

    func run() throws {
        if schema {
            print(CardSchema.json().serialized())
            return
        }
        guard let spec = specs.first else { throw CLIFailure(message: "no spec: give SPEC.json, or - for standard input") }
        let values = try parseVariables()
        if runOptions.proofs != nil {
            let engine = try runOptions.engine()
            return try writeProofs(try runOptions.proofSheet(fonts: engine.world.fonts)!, engine: engine, values: values)
        }
        guard specs.count == 1 else { throw CLIFailure(message: "several specs make one PDF of proofs: add --pdf FILE.pdf") }
        // The timing flags are checked whatever the card turns out to be.
        var timing = AnimationTiming()
        try animation.adjust(&timing)
        // Where the output could be an animation, the spec is read and parsed once here (standard
        // input cannot be read twice) and the parse serves the still card too.
        var input: (JSONValue, String)?, parsed: CardSpec?
        if format == nil, AnimationFlags.format(output: output, animated: true) != nil {
            input = try read(spec)
            parsed = try parse(input!, name: spec, values: values)
            if let animated = AnimationFlags.format(output: output, animated: parsed!.isAnimated) {
                return try writeAnimation(parsed!, name: spec, as: animated)
            }
        }
        let resolvedFormat = try OutputOptions.format(output: output, forced: format, otherwise: dumpLayout != nil,
                                                      alternatives: "or --dump-layout")
        try target.checkWritable()
        let (json, folder) = try input ?? read(spec)
        let name = spec == "-" ? "standard input" : spec
        let asked = Variables.names(in: json)
        for unused in values.keys.sorted() where !asked.contains(unused) {
            warn("--var \(unused): \(name) has no {{\(unused)}}")
        }
        // One image, then exit: see RenderOptions.oneShot.
        let engine = try runOptions.engine(oneShot: true)
        var job = Job(format: resolvedFormat, encoding: try runOptions.encoding.options())
        job.pdf = try runOptions.pdf.metadata(checkingNeeds: false)
        job.draw = output != nil
        job.layoutReport = dumpLayout != nil
        job.oneShot = true
        let rendered: CardOutput
        do {
            rendered = try engine.render(try parsed ?? engine.parse(json, variables: values, folder: folder), job: job)
        } catch let error as CardError {
            throw CLIFailure(message: "\(name): \(error)\(varHint(error))")
        }
        if output != nil { warnIfFlattened(format: resolvedFormat, opaque: rendered.opaque) }
        let image: [UInt8]? = output == nil ? nil : rendered.bytes
        let built = rendered.card
        // Files are written only once everything has succeeded, the dump after the image.
        if let path = output, let image { try CLIOutput.write(image, to: path) }
        if let path = dumpLayout { try CLIOutput.write(Array((built.dump.serialized() + "\n").utf8), to: path) }
    }

    /// The spec with its variables filled, parsed under the run's link policy.
    private func parse(_ input: (JSONValue, String), name spec: String, values: [String: String]) throws -> CardSpec {
        let (json, folder) = input
        do {
            return try CardSpec.parse(try Variables.substitute(json, values), folder: folder, linkSchemes: try runOptions.links.schemes())
        } catch let error as CardError {
            throw CLIFailure(message: "\(spec == "-" ? "standard input" : spec): \(error)\(varHint(error))")
        }
    }

    /// An animated card: frames drawn and encoded, the file written once all succeeded.
    private func writeAnimation(_ parsed: CardSpec, name spec: String, as format: AnimationFormat) throws {
        try target.checkWritable()
        let name = spec == "-" ? "standard input" : spec
        let engine = try runOptions.engine()
        let rendered: CardOutput
        do {
            rendered = try animation.animate(parsed, engine: engine, as: format, encoding: try runOptions.encoding.options(),
                                             layoutReport: dumpLayout != nil)
        } catch let error as CardError {
            throw CLIFailure(message: "\(name): \(error)\(varHint(error))")
        }
        try CLIOutput.write(rendered.bytes, to: output!)
        if let path = dumpLayout { try CLIOutput.write(Array((rendered.card.dump.serialized() + "\n").utf8), to: path) }
    }

    /// A spec file's JSON and its folder (relative paths in it resolve there).
    private func read(_ spec: String) throws -> (JSONValue, String) {
        let name = spec == "-" ? "standard input" : spec
        let bytes = try Posix.readFile(spec, as: "card spec", limit: runOptions.limits.text)
        do {
            return (try JSONValue.parse(bytes), spec == "-" ? "." : OutputFile.split(spec).0)
        } catch let error as JSONSyntaxError {
            throw CLIFailure(message: "\(name): \(error)")
        }
    }

    /// `--pdf`: each spec on its own page (and -o/--dump-layout are for one card).
    private func writeProofs(_ proofs: ProofSheet, engine: Engine, values: [String: String]) throws {
        guard output == nil, dumpLayout == nil else { throw CLIFailure(message: "--pdf writes the proofs; -o and --dump-layout are for one card") }
        for (index, spec) in specs.enumerated() {
            let (json, folder) = try read(spec)
            do {
                var job = Job(format: .pdf)
                (job.draw, job.layoutReport) = (false, false)
                let card = try engine.render(json, variables: values, folder: folder, job: job).card
                proofs.deliver(card.scene, at: index, name: spec)
            } catch let error as CardError {
                throw CLIFailure(message: "\(spec == "-" ? "standard input" : spec): \(error)\(varHint(error))")
            }
        }
        _ = try proofs.finish()
    }

    /// Where a missing variable's value comes from here.
    private func varHint(_ error: CardError) -> String {
        error.missingVariables.isEmpty ? "" : " (give " + error.missingVariables.map { "--var \($0)=..." }.joined(separator: " ") + ")"
    }

    private func parseVariables() throws -> [String: String] {
        var values: [String: String] = [:]
        for item in variables {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw CLIFailure(message: "--var: '\(item)' is not name=value")
            }
            values[String(item[..<eq]).trimmed] = String(item[item.index(after: eq)...])
        }
        return values
    }
}
