import Foundation
import Render
import Testing

/// A deterministic test image: `width` x `height` premultiplied pixels with a transparent
/// border of `pad` pixels.
func testImage(width: Int, height: Int, pad: Int, seed: UInt64 = 7) -> [UInt8] {
    var state = seed
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in pad..<(height - pad) {
        for x in pad..<(width - pad) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let alpha = UInt8(truncatingIfNeeded: state >> 56) | 0x40
            let i = (y * width + x) * 4
            // Premultiplied: colour channels never exceed alpha.
            pixels[i] = UInt8(UInt32(truncatingIfNeeded: state >> 16) % (UInt32(alpha) + 1))
            pixels[i + 1] = UInt8(UInt32(truncatingIfNeeded: state >> 24) % (UInt32(alpha) + 1))
            pixels[i + 2] = UInt8(UInt32(truncatingIfNeeded: state >> 32) % (UInt32(alpha) + 1))
            pixels[i + 3] = alpha
        }
    }
    return pixels
}

func blurred(_ pixels: [UInt8], width: Int, height: Int, sigma: Double) -> [UInt8] {
    var out = pixels
    out.withUnsafeMutableBufferPointer { BoxBlur.blur($0.baseAddress!, width: width, height: height, stride: width * 4, sigma: sigma) }
    return out
}

/// Direct 2-D Gaussian convolution in Double, transparent outside: one 1-D pass per axis.
func gaussian(_ pixels: [UInt8], width: Int, height: Int, sigma: Double) -> [Double] {
    let radius = Int((4 * sigma).rounded(.up))
    let kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = kernel.reduce(0, +)
    let weights = kernel.map { $0 / total }
    /// Convolves along x (dx = 1) or y (dy = 1).
    func pass(_ input: [Double], dx: Int, dy: Int) -> [Double] {
        var out = [Double](repeating: 0, count: input.count)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<4 {
                    var sum = 0.0
                    for k in -radius...radius {
                        let sx = x + k * dx, sy = y + k * dy
                        guard sx >= 0, sx < width, sy >= 0, sy < height else { continue }
                        sum += weights[k + radius] * input[(sy * width + sx) * 4 + c]
                    }
                    out[(y * width + x) * 4 + c] = sum
                }
            }
        }
        return out
    }
    return pass(pass(pixels.map(Double.init), dx: 1, dy: 0), dx: 0, dy: 1)
}

@Suite struct BlurTests {
    @Test func boxWidthsFollowTheFormula() {
        // sigma 11, three passes: ideal width sqrt(12*121/3 + 1) = 22.02; wl = 21, wu = 23,
        // m = round((1452 - 1323 - 252 - 9) / -88) = 2 passes of 21.
        #expect(BoxBlur.boxWidths(sigma: 11) == [21, 21, 23])
        #expect(BoxBlur.boxWidths(sigma: 0) == [])
        #expect(BoxBlur.reach(sigma: 11) == 10 + 10 + 11)
        // The boxes' variance approximates sigma squared.
        for sigma in [2.0, 5.5, 11, 40, 150] {
            let variance = BoxBlur.boxWidths(sigma: sigma).reduce(0.0) { $0 + Double($1 * $1 - 1) / 12 }
            // Within 10%: whole odd widths are coarse for small sigma (2 gives 3, 3, 5: 1.83).
            #expect(abs(variance.squareRoot() - sigma) / sigma < 0.1, "sigma \(sigma): \(variance.squareRoot())")
        }
    }

    /// Stated bound: against a direct Gaussian, every channel is within 12 of 255 and the mean
    /// absolute error is under 1.5 (three boxes are not a Gaussian: the largest errors sit on
    /// sharp single-pixel features; 8-bit rounding between passes adds at most 1.5).
    @Test(arguments: [2.0, 3.5, 6.0])
    func closeToADirectGaussian(sigma: Double) {
        let pad = BoxBlur.reach(sigma: sigma) + 2
        let width = 48 + 2 * pad, height = 40 + 2 * pad
        let image = testImage(width: width, height: height, pad: pad)
        let ours = blurred(image, width: width, height: height, sigma: sigma)
        let reference = gaussian(image, width: width, height: height, sigma: sigma)
        let errors = zip(ours, reference).map { abs(Double($0) - $1) }
        let maxError = errors.max()!, meanError = errors.reduce(0, +) / Double(errors.count)
        #expect(maxError <= 12, "max error \(maxError)")
        #expect(meanError < 1.5, "mean error \(meanError)")
    }

    // (At very large sigma an 8-bit image loses faint spread-out mass to rounding at every pass;
    // sigma 150 over a small patch rounds to zero everywhere, so it is not a case here.)
    @Test(arguments: [1.5, 11.0, 40.0])
    func totalsArePreservedWithTransparentPadding(sigma: Double) {
        let pad = BoxBlur.reach(sigma: sigma) + 1
        let width = 32 + 2 * pad, height = 20 + 2 * pad
        let image = testImage(width: width, height: height, pad: pad)
        let out = blurred(image, width: width, height: height, sigma: sigma)
        for c in 0..<4 {
            let before = stride(from: c, to: image.count, by: 4).reduce(0) { $0 + Int(image[$1]) }
            let after = stride(from: c, to: out.count, by: 4).reduce(0) { $0 + Int(out[$1]) }
            // Each of the six passes rounds every output to the nearest integer.
            let slack = Double(width * height) * 6 * 0.5
            #expect(Double(abs(after - before)) <= slack, "channel \(c): \(before) -> \(after)")
            if sigma < 2 {
                // Values stay large at small sigma, so rounding is small next to the total.
                #expect(abs(Double(after - before)) / Double(before) < 0.005, "channel \(c): \(before) -> \(after)")
            }
        }
    }

    @Test(arguments: [0, 1, 77, 200, 255] as [UInt8])
    func constantStaysConstantAwayFromTheEdges(value: UInt8) {
        let width = 120, height = 90, sigma = 6.0
        let image = [UInt8](repeating: value, count: width * height * 4)
        let out = blurred(image, width: width, height: height, sigma: sigma)
        let reach = BoxBlur.reach(sigma: sigma)
        for y in reach..<(height - reach) {
            for x in reach..<(width - reach) {
                let i = (y * width + x) * 4
                #expect(out[i..<(i + 4)].allSatisfy { $0 == value }, "(\(x), \(y))")
            }
        }
    }

    @Test func radiusZeroIsTheIdentity() {
        let image = testImage(width: 30, height: 20, pad: 2)
        #expect(blurred(image, width: 30, height: 20, sigma: 0) == image)
        #expect(blurred(image, width: 30, height: 20, sigma: 0.2) == image, "boxes of width 1")
    }

    @Test func oddSizesAndStridesWork() {
        // A width whose rows are not a multiple of 16 bytes, inside a wider buffer.
        let width = 37, height = 23, stride = 41 * 4
        var buffer = [UInt8](repeating: 9, count: stride * height)
        let image = testImage(width: width, height: height, pad: 0)
        for y in 0..<height { buffer.replaceSubrange((y * stride)..<(y * stride + width * 4), with: image[(y * width * 4)..<((y + 1) * width * 4)]) }
        buffer.withUnsafeMutableBufferPointer { BoxBlur.blur($0.baseAddress!, width: width, height: height, stride: stride, sigma: 3) }
        let packed = blurred(image, width: width, height: height, sigma: 3)
        for y in 0..<height {
            #expect(Array(buffer[(y * stride)..<(y * stride + width * 4)]) == Array(packed[(y * width * 4)..<((y + 1) * width * 4)]))
            #expect(buffer[(y * stride + width * 4)..<((y + 1) * stride)].allSatisfy { $0 == 9 }, "padding bytes untouched")
        }
    }
}
