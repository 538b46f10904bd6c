import Flags
import Card
import Render
import Support

/// How much input a run reads at most: every file and standard input go through this bound.
struct InputLimits: FlagGroup {
    static let defaultTextBytes = 16 << 20
    static let defaultImageBytes = 256 << 20

    @Option("max-input-bytes", help: Help("""
        Largest input read, in bytes: text, steps and spec files, standard input, images \
        (default 16 MiB for text, 256 MiB for images).
        """, valueName: "n"))
    var maxInputBytes: Int?

    var text: Int { maxInputBytes ?? Self.defaultTextBytes }
    var image: Int { maxInputBytes ?? Self.defaultImageBytes }

    func validate() throws {
        if let maxInputBytes, maxInputBytes <= 0 {
            throw CLIFailure(message: "--max-input-bytes must be positive, got \(maxInputBytes)")
        }
    }
}

extension InputLimits {
    /// The command line's world for the engine: `fonts`, files a spec names read as regular
    /// files up to the image bound (named in errors), canvases up to `maxPixels`.
    func world(fonts: FontContext, maxPixels: Int) -> World {
        World(fonts: fonts, maxPixels: maxPixels) { [limit = image] path in
            try Posix.readFile(path, as: "file", limit: limit)
        }
    }
}
