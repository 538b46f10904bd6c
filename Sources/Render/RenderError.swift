public enum RenderError: Error, Equatable, CustomStringConvertible {
    case cairo(String)
    case freetype(String, code: Int32)
    case canvasTooLarge(width: Int, height: Int, limit: Int)
    case invalidCanvas(String)

    public var description: String {
        switch self {
        case let .cairo(message): return "cairo: \(message)"
        case let .freetype(file, code): return "FreeType cannot open '\(file)' (error \(code))"
        case let .canvasTooLarge(width, height, limit):
            return "canvas \(width)x\(height) is \(width * height) pixels, over the limit of \(limit) (see --max-pixels)"
        case let .invalidCanvas(message): return message
        }
    }
}
