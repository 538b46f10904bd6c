import Render
import Support
import Typeset
import PDFPost

/// Everything the engine takes from outside, given once by its caller (typst's `World` is the
/// model): the fonts (a catalogue filled from folders or bytes), how a file a spec names is
/// read and which font files may be opened, the limits, the link policy, where decoders run,
/// the clock and the random source. The engine reads no environment variable, argv or path
/// of its own: the CLI, batch, the service and HLRenderKit each describe their world here.
package struct World: Sendable {
    /// The font catalogue, loaded once and shared (thread-safe).
    package let fonts: FontContext
    /// Reads a file a spec names (a picture, a text file); paths arrive resolved against the
    /// spec's folder. The caller bounds the size and confines the place.
    package var readFile: @Sendable (String) throws -> [UInt8]
    /// Checks a font file a spec names before FreeType opens it by name; throws to refuse it.
    package var checkFontFile: @Sendable (String) throws -> Void = { _ in }
    /// Whether a path names a regular file: a font value naming one is that font file,
    /// anything else a Fontconfig pattern. The default asks the file system.
    package var isRegularFile: @Sendable (String) -> Bool = World.diskIsRegularFile
    /// A file's identity (device, inode, size, time), the key of what is decoded from it and
    /// kept between cards; nil: not told, so nothing made from it is kept. The default asks
    /// the file system, so a picture replaced on disk is decoded afresh.
    package var fileIdentity: @Sendable (String) -> String? = World.diskFileIdentity
    /// The largest canvas or picture taken, in pixels.
    package var maxPixels: Int
    /// The schemes links may use (the caller's policy; specs are parsed with it).
    package var linkSchemes = LinkSchemes()
    /// Where SVG pictures and web fonts are decoded: here, or in a limited worker.
    package var isolation = Isolation.inProcess
    /// The seed of scrambled restricted text when a spec gives none (a new seed per render
    /// keeps the hidden text from being recovered by averaging renders).
    package var random: @Sendable () -> UInt64 = { ScrambleSeed.random() }
    /// Seconds since 1970, for the dates of a PDF whose job fixes none (nil: the system's
    /// clock, read by Cairo).
    package var clock: (@Sendable () -> Int64)?
    /// Bytes of decoded pictures kept between cards (a batch decodes its template's photo once).
    package var pictureCacheBytes = World.defaultPictureCacheBytes
    /// Bytes of drawn backgrounds kept between cards (a template's gradient or blurred photo;
    /// at most four canvases).
    package var backgroundCacheBytes = Int.max

    /// A world of these fonts, this pixel limit and this way of reading files.
    package init(fonts: FontContext, maxPixels: Int = PixelLimit.defaultPixels, readFile: @escaping @Sendable (String) throws -> [UInt8]) {
        (self.fonts, self.maxPixels, self.readFile) = (fonts, maxPixels, readFile)
    }

    /// The file system's answer to `isRegularFile`.
    package static let diskIsRegularFile: @Sendable (String) -> Bool = { Posix.kind($0) == .regular }
    /// The file system's answer to `fileIdentity`.
    package static let diskFileIdentity: @Sendable (String) -> String? = { Posix.identity($0) }

    /// 256 MiB: a batch's template photos and logos, many times over.
    package static let defaultPictureCacheBytes = 256 << 20

    /// The font library behind the catalogue.
    package var library: FontLibrary { fonts.library }
}

/// One render's own terms, as opposed to the world's: what to make, how to encode it, and the
/// state that belongs to this call alone (its cancellation, its share of a memory budget).
package struct Job: Sendable {
    /// The still output's format (an animation names its container to `Engine.animate`).
    package var format: OutputFormat
    /// The encoder's rows (quality, lossless, alt text, ...).
    package var encoding: EncodeOptions
    /// The PDF's information and standards (a card's own `pdf` key is laid over it).
    package var pdf = PDFMetadata()
    /// False lays the card out only: the layout report, nothing drawn or encoded.
    package var draw = true
    /// Checked between blocks, paragraphs, drawing and encoding (a service's deadline).
    package var cancellation: Cancellation?
    /// The share of a memory budget the render draws from: what drawing will allocate is
    /// reserved after layout, before the first surface.
    package var memory: MemoryBudget.Lease?
    /// The process renders this card and exits (see `RenderOptions.oneShot`).
    package var oneShot = false
    /// Told of every file the render reads (nil: nobody asks).
    package var readLog: ReadLog?
    /// Whether the layout report (the layout-dump contract) is wanted: its lines, runs, spans
    /// and highlight outlines are built only then (a service render never reads them).
    package var layoutReport = true

    /// A job making `format` with these encoder settings.
    package init(format: OutputFormat, encoding: EncodeOptions = EncodeOptions()) {
        (self.format, self.encoding) = (format, encoding)
    }
}
