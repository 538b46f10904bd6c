/// An 8-bit straight-alpha RGBA image, rows top to bottom, no padding: what decoders give,
/// comparisons read and the package encoders take.
package struct RGBAImage: Equatable, Sendable {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    package init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = fill.0
            pixels[i + 1] = fill.1
            pixels[i + 2] = fill.2
            pixels[i + 3] = fill.3
        }
    }

    package subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        get {
            let i = (y * width + x) * 4
            return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// This image at the top-left of a larger transparent canvas.
    package func padded(width newWidth: Int, height newHeight: Int) -> RGBAImage {
        var out = RGBAImage(width: newWidth, height: newHeight)
        for y in 0..<height {
            let src = y * width * 4, dst = y * newWidth * 4
            out.pixels.replaceSubrange(dst..<(dst + width * 4), with: pixels[src..<(src + width * 4)])
        }
        return out
    }
}
