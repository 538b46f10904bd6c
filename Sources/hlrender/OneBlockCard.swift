import Card
import Render
import Support
import Typeset

/// `render` and `steps` draw a card of one block: built by the card library like any card,
/// its errors worded with this command's flags.
func build(_ spec: CardSpec, fonts: FontContext, limits: InputLimits, maxPixels: Int) throws -> BuiltCard {
    let resources = CardResources(fonts: fonts, maxPixels: maxPixels) { [limit = limits.image] path in
        try Posix.readFile(path, as: "file", limit: limit)
    }
    do {
        return try CardBuilder.build(spec, resources: resources)
    } catch let error as CardError {
        throw CLIFailure(message: flagWording(error))
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
