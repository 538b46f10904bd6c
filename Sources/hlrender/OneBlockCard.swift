import Card
import Render
import Support
import Typeset

/// `render` and `steps` draw a card of one block through the `Engine`, the path of `card`,
/// batch rows, the service and the library (one renderer, budget and cancellation rule); only
/// the errors are worded with this command's flags. `draw`: false lays out only (a dump).
func renderOneBlock(_ spec: CardSpec, fonts: FontContext, limits: InputLimits, output: OutputOptions,
                    format: OutputFormat, draw: Bool) throws -> CardOutput {
    let engine = Engine(world: limits.world(fonts: fonts, maxPixels: try output.pixelLimit.pixels()))
    var job = Job(format: format, encoding: try output.encoding.options())
    job.pdf = try output.pdf.metadata()
    job.draw = draw
    job.layoutReport = !draw || output.dumpLayout != nil
    job.oneShot = true  // render and steps draw one image and exit
    do {
        return try engine.render(spec, job: job)
    } catch let error as CardError {
        throw CLIFailure(message: flagWording(error))
    } catch let error as RenderError {
        // A side too long for the format is blamed on --canvas when that set the size (the
        // generic advice names the text's size flags).
        guard output.canvas != nil, case let .sideTooLong(_, _, _, format) = error, format != .pdf else { throw error }
        throw CLIFailure(message: error.description + "; lower --canvas or --scale")
    }
}

/// A card error in flag terms: the key becomes the flag that sets it.
func flagWording(_ error: CardError, size: String = "--canvas") -> String {
    let flags = ["padding": "--margin", "size": size, "scale": "--scale"]
    guard let key = error.path.split(separator: ".").last.map(String.init), !key.isEmpty else { return error.message }
    return "\(flags[key] ?? "--" + key): \(error.message)"
}

extension BuiltCard {
    /// The `--dump-layout` file of a one-block canvas.
    func canvasDump() -> [UInt8] { Array((soleBlockDump().serialized() + "\n").utf8) }
}
