import Testing
@testable import Compare

/// Why two images differ, on drawn scenes where the answer is known.
@Suite struct DiffKindTests {
    /// A light card with a dark bar, a blue button with soft (anti-aliased) edges and a few
    /// "letters" (small dark blocks), moved by (dx, dy) and with the button in `button`.
    static func scene(dx: Int = 0, dy: Int = 0, button: (UInt8, UInt8, UInt8) = (30, 110, 230), letters: [Int] = [0, 1, 2, 3],
                      edge: Double = 0.5) -> RGBAImage {
        var image = RGBAImage(width: 160, height: 120, fill: (250, 250, 250, 255))
        for x in 0..<160 { for y in 0..<14 { image[x, y] = (30, 30, 40, 255) } }
        for l in letters {
            for x in (20 + l * 14 + dx)..<(28 + l * 14 + dx) { for y in (30 + dy)..<(42 + dy) { image[x, y] = (20, 20, 20, 255) } }
        }
        // The button: a filled rectangle with a one-pixel border blended `edge` of the way.
        let blend = { (a: UInt8, b: UInt8) in UInt8((Double(a) * (1 - edge) + Double(b) * edge).rounded()) }
        for x in 40..<120 {
            for y in 70..<100 {
                let border = x == 40 || x == 119 || y == 70 || y == 99
                image[x, y] = border ? (blend(250, button.0), blend(250, button.1), blend(250, button.2), 255) : (button.0, button.1, button.2, 255)
            }
        }
        return image
    }

    static func kind(_ a: RGBAImage, _ b: RGBAImage, countAA: Bool = true) throws -> DiffKind? {
        var options = DiffOptions()
        options.countAntialiasing = countAA
        let result = try ImageDiff.compare(a, b, options: options, maxPixels: 1 << 24)
        guard result.differentPixels > 0 || result.antialiasedPixels > 0 else { return nil }
        return DiffClassifier.classify(a, b, result: result, options: options)
    }

    @Test func shiftsAreFoundWithTheirOffset() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(dx: 5, dy: 3)) == .shifted(dx: 5, dy: 3))
        #expect(try Self.kind(Self.scene(), Self.scene(dx: -7, dy: 0)) == .shifted(dx: -7, dy: 0))
    }

    @Test func aRecolouredButtonIsColourOnly() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(button: (220, 50, 50))) == .colour)
    }

    @Test func softerEdgesAreAntialiasing() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(edge: 0.8)) == .antialiasing)
    }

    @Test func aMissingLetterIsAChange() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(letters: [0, 1, 3])) == .changed)
    }

    @Test func equalImagesHaveNoKind() throws {
        #expect(try Self.kind(Self.scene(), Self.scene()) == nil)
    }

    @Test func shiftsBeyondTheSearchAreChanges() throws {
        #expect(try Self.kind(Self.scene(), Self.scene(dx: DiffClassifier.maxShift + 6)) == .changed)
    }
}
