import Support

/// The part of a picture that is rasterised: the picture is drawn at `fullWidth` x
/// `fullHeight` pixels, of which only the window at (`x`, `y`), `width` x `height` is made.
/// A picture larger than the canvas (zoomed, or pushed off an edge) then costs no more pixels
/// than the canvas shows.
package struct RasterWindow: Sendable, Hashable, CustomStringConvertible {
    package var fullWidth: Int, fullHeight: Int
    package var x: Int, y: Int, width: Int, height: Int

    /// The whole picture at `width` x `height`.
    package init(width: Int, height: Int) {
        (fullWidth, fullHeight, x, y, self.width, self.height) = (width, height, 0, 0, width, height)
    }

    package init(fullWidth: Int, fullHeight: Int, x: Int, y: Int, width: Int, height: Int) {
        (self.fullWidth, self.fullHeight, self.x, self.y, self.width, self.height) = (fullWidth, fullHeight, x, y, width, height)
    }

    /// The window of a picture drawn at `full` pixels with its top-left corner at `origin` (in
    /// pixels of the canvas, fractional) that lies on a canvas of `canvas` pixels; nil when no
    /// pixel of it does.
    package static func visible(full: (width: Int, height: Int), origin: (x: Double, y: Double),
                                canvas: (width: Int, height: Int)) -> RasterWindow? {
        func span(_ at: Double, _ length: Int, _ room: Int) -> (Int, Int)? {
            // Pixels [low, high) of the picture fall inside [0, room) of the canvas.
            let low = Checked.clamped(-at, .down, in: 0...length), high = Checked.clamped(Double(room) - at, .up, in: 0...length)
            return low < high ? (low, high) : nil
        }
        guard let (x0, x1) = span(origin.x, full.width, canvas.width), let (y0, y1) = span(origin.y, full.height, canvas.height) else {
            return nil
        }
        return RasterWindow(fullWidth: full.width, fullHeight: full.height, x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether the window is the whole picture.
    package var isWhole: Bool { x == 0 && y == 0 && width == fullWidth && height == fullHeight }

    /// The window inside a box of `boxWidth` x `boxHeight` (the whole picture's size where it
    /// is drawn): its offset and size in the box's units.
    package func rect(inBox boxWidth: Double, _ boxHeight: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let (sx, sy) = (boxWidth / Double(fullWidth), boxHeight / Double(fullHeight))
        return (Double(x) * sx, Double(y) * sy, Double(width) * sx, Double(height) * sy)
    }

    package var description: String { "\(width)x\(height)+\(x)+\(y) of \(fullWidth)x\(fullHeight)" }
}
