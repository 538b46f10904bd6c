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
            let pixels = width.multipliedReportingOverflow(by: height)
            guard width < Int(1e15), height < Int(1e15), !pixels.overflow else {
                return "canvas is far too large, over the limit of \(limit) pixels (see --max-pixels)"
            }
            return "canvas \(width)x\(height) is \(pixels.partialValue) pixels, over the limit of \(limit) (see --max-pixels)"
        case let .invalidCanvas(message): return message
        }
    }
}
