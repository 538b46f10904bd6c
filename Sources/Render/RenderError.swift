/// What went wrong in drawing or encoding, worded without any front end's terms (no flag, no
/// JSON key): the CLI adds its flags as hints, the service and card errors their own words.
package enum RenderError: Error, Equatable, CustomStringConvertible {
    case cairo(String)
    case freetype(String, code: Int32)
    case canvasTooLarge(width: Int, height: Int, limit: Int)
    /// A working surface (a blur's padded copy) past the pixel limit.
    case surfaceTooLarge(String, width: Int, height: Int, limit: Int)
    case invalidCanvas(String)
    case badGlyph(String, glyph: UInt32, code: Int32)
    case image(String)
    case invalidOption(String)
    case sideTooLong(width: Int, height: Int, limit: Int, format: OutputFormat)

    package var description: String {
        switch self {
        case let .cairo(message): return "cairo: \(message)"
        case let .freetype(file, code): return "FreeType cannot open '\(file)' (error \(code))"
        case let .canvasTooLarge(width, height, limit):
            // Only reached within the side limit, so the product cannot overflow.
            return "canvas \(width)x\(height) is \(width * height) pixels, over the limit of \(limit)"
        case let .surfaceTooLarge(what, width, height, limit):
            return "\(what) needs a \(width)x\(height) surface, over the limit of \(limit) pixels"
        case let .invalidCanvas(message): return message
        case let .image(message): return message
        case let .invalidOption(message): return message
        case let .badGlyph(file, glyph, code):
            return "font '\(file)': glyph \(glyph) cannot be loaded (FreeType error \(code)); the file may be truncated or damaged"
        case let .sideTooLong(width, height, limit, format):
            let unit = format == .pdf ? "pt" : "px"
            let hint = format == .pdf
                ? "PDF pages are at most \(limit) pt a side; render fewer lines per file, or a PNG"
                : "\(format.displayName) images are at most \(limit) px a side"
            let size = width >= Int(1e15) || height >= Int(1e15) ? "output is far too large" : "output \(width)x\(height) \(unit) is too large"
            return "\(size): \(hint)"
        }
    }
}
