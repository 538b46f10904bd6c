import Codecs
import Render
import Foundation
import Testing
@testable import Compare

private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/ssim")

/// Scores against scikit-image's `structural_similarity` on the same grey images
/// (Fixtures/ssim/make.py wrote both): 20 pairs, from identical to inverted.
@Suite struct SSIMTests {
    static let reference: [String: Double] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("skimage.json"))
        let json = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return json["scores"] as! [String: Double]
    }()

    static func load(_ name: String) throws -> RGBAImage {
        try PNGCodec.decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".png"))))
    }

    @Test func twentyPairsAgreeWithScikitImage() throws {
        #expect(Self.reference.count == 20)
        let a = try Self.load("a")
        for (name, expected) in Self.reference.sorted(by: { $0.key < $1.key }) {
            let score = SSIM.score(a, try Self.load(name))
            #expect(abs(score - expected) <= 0.005, "\(name): \(score) against scikit-image's \(expected)")
        }
    }

    @Test func scoreOrdersDistortions() throws {
        let a = try Self.load("a")
        #expect(SSIM.score(a, a) == 1)
        #expect(SSIM.score(a, try Self.load("jpeg90")) > SSIM.score(a, try Self.load("jpeg10")))
        #expect(SSIM.score(a, try Self.load("noise2")) > SSIM.score(a, try Self.load("noise25")))
    }

    @Test func imagesSmallerThanTheWindowComparePixels() {
        let a = RGBAImage(width: 5, height: 5, fill: (1, 2, 3, 255))
        #expect(SSIM.score(a, a) == 1)
        #expect(SSIM.score(a, RGBAImage(width: 5, height: 5, fill: (9, 2, 3, 255))) == 0)
    }
}
