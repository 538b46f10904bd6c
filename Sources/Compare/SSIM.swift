import Support

/// The structural similarity index (Wang et al. 2004) of two same-size images, as
/// scikit-image's `structural_similarity(a, b, data_range=255)` computes it with its defaults:
/// grey images, a 7x7 uniform window, sample covariances (49/48), K1 = 0.01, K2 = 0.03, and the
/// mean over every window that lies wholly inside the image (skimage crops 3 pixels a side).
///
/// Grey is the BT.601 luma of each pixel blended over white, rounded to a whole value, so a
/// grey image's grey is itself. Window sums are exact integers (kept for seven rows at a time),
/// so the score does not drift with the image's size.
package enum SSIM {
    /// The metric's name and version, as reports print them.
    package static let version = "ssim-1 (7x7 uniform window, K1 0.01, K2 0.03, as scikit-image 0.26)"

    static let window = 7

    /// The mean SSIM, from -1 to 1 (1: identical). Images smaller than the window in either
    /// direction are compared pixel for pixel: 1 when equal, else 0.
    package static func score(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        precondition(a.width == b.width && a.height == b.height, "SSIM needs two images of one size")
        let width = a.width, height = a.height
        guard width >= window, height >= window else { return a.pixels == b.pixels ? 1 : 0 }
        let x = grey(a), y = grey(b)
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        let n = Double(window * window), covariance = n / (n - 1)
        let columns = width - window + 1
        // Horizontal window sums of x, y, x², y², xy for each row, kept in a ring of seven rows.
        var ring = [[Int64]](repeating: [Int64](repeating: 0, count: columns * 5), count: window)
        var vertical = [Int64](repeating: 0, count: columns * 5)
        var total = 0.0
        for row in 0..<height {
            let slot = row % window
            for k in 0..<(columns * 5) { vertical[k] -= ring[slot][k] }
            horizontalSums(x, y, row: row, width: width, into: &ring[slot])
            for k in 0..<(columns * 5) { vertical[k] += ring[slot][k] }
            guard row >= window - 1 else { continue }
            for column in 0..<columns {
                let k = column * 5
                let mx = Double(vertical[k]) / n, my = Double(vertical[k + 1]) / n
                let vx = covariance * (Double(vertical[k + 2]) / n - mx * mx)
                let vy = covariance * (Double(vertical[k + 3]) / n - my * my)
                let vxy = covariance * (Double(vertical[k + 4]) / n - mx * my)
                total += ((2 * mx * my + c1) * (2 * vxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
            }
        }
        return total / Double(columns * (height - window + 1))
    }

    private static func horizontalSums(_ x: [UInt8], _ y: [UInt8], row: Int, width: Int, into sums: inout [Int64]) {
        let base = row * width
        var s = [Int64](repeating: 0, count: 5)
        for i in 0..<width {
            let p = Int64(x[base + i]), q = Int64(y[base + i])
            s[0] += p; s[1] += q; s[2] += p * p; s[3] += q * q; s[4] += p * q
            if i >= window {
                let p0 = Int64(x[base + i - window]), q0 = Int64(y[base + i - window])
                s[0] -= p0; s[1] -= q0; s[2] -= p0 * p0; s[3] -= q0 * q0; s[4] -= p0 * q0
            }
            if i >= window - 1 {
                let k = (i - window + 1) * 5
                for j in 0..<5 { sums[k + j] = s[j] }
            }
        }
    }

    /// BT.601 luma over white, rounded: 0.299 R + 0.587 G + 0.114 B.
    static func grey(_ image: RGBAImage) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { p in
            for i in 0..<out.count {
                let alpha = Double(p[i * 4 + 3]) / 255
                let luma = 0.299 * Double(p[i * 4]) + 0.587 * Double(p[i * 4 + 1]) + 0.114 * Double(p[i * 4 + 2])
                out[i] = UInt8(max(0, min(255, (255 + (luma - 255) * alpha).rounded())))
            }
        }
        return out
    }
}
