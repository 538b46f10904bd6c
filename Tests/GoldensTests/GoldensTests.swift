import Compare
@testable import Goldens
import Testing
import Support
import Foundation
import TestSupport

@Suite struct GoldensTests {
    /// FIPS 180-2 examples, and a message that needs a second padding block.
    @Test func sha256KnownVectors() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// Every length around the block and padding edges, and a font file, as coreutils'
    /// sha256sum hashes them.
    @Test func sha256AgreesWithSha256sum() throws {
        var generator = SystemRandomNumberGenerator()
        for count in Array(0...130) + [1000, 4096, 100_003] {
            let data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
            try Data(data).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let reference = try runTool("/usr/bin/sha256sum", [file.path]).output.prefix(64)
            #expect(SHA256.hex(data) == String(reference), "\(count) bytes")
        }
        let font = Fixtures.fonts + "/NotoSans-Regular.ttf"
        #expect(SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: font))))
                == String(try runTool("/usr/bin/sha256sum", [font]).output.prefix(64)))
    }

    /// RFC 4231 test cases 1, 2 and 6 (a key longer than the block is hashed first).
    /// The CPU's SHA extensions and the Swift code give the same digest at every length around
    /// the block and padding edges, and for a large input (skipped where the CPU has none).
    @Test(.enabled(if: SHA256.hardware)) func sha256ExtensionsAgreeWithTheSwiftCode() {
        var random = SplitMix(seed: 256)
        for count in Array(0...200) + [1_000, 4_095, 4_096, 4_097, 1 << 20] {
            let data = (0..<count).map { _ in random.byte() }
            #expect(SHA256.digest(data, extensions: true) == SHA256.digest(data, extensions: false), "\(count) bytes")
        }
    }

    @Test func hmacSHA256KnownVectors() {
        #expect(SHA256.hmacHex(key: [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(SHA256.hmacHex(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(SHA256.hmacHex(key: [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func junitEscapesMarkupLineBreaksAndControls() {
        #expect(JUnitReport.escape("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;")
        #expect(JUnitReport.escape("one\r\ntwo\tthree\u{1}") == "one&#13;&#10;two&#9;three\u{FFFD}")
    }

    /// A golden's stored inputs hold the tolerance's fingerprint: every option, set alone to a
    /// value other than its default, changes it (a new option the fingerprint forgets fails
    /// here), and one value always gives one text.
    @Test func everyToleranceOptionChangesTheFingerprint() throws {
        let plain = GoldenTolerance().fingerprint
        let others: [String: OptionInput] = ["threshold": .text("0.3"), "metric": .text("ssim"), "min-ssim": .text("0.5"),
                                             "dpi": .text("144"), "count-aa": .json(.bool(true)), "max-diff-pixels": .text("7"),
                                             "max-diff-ratio": .text("0.25"), "ignore": .text("1,2,3,4")]
        #expect(Set(others.keys) == Set(GoldenTolerance.optionNames))
        var seen: Set<String> = [plain]
        for (name, value) in others {
            var tolerance = GoldenTolerance()
            try tolerance.set(name, value)
            #expect(seen.insert(tolerance.fingerprint).inserted, "\(name) leaves the fingerprint as another option makes it")
        }
        var node = GoldenTolerance()
        try node.set("ignore", .text("blocks[1]"))
        #expect(node.fingerprint != plain)
        #expect(GoldenTolerance().fingerprint == plain)
    }

    /// One definition of the comparison options: ranges, whole pixels, no overflow.
    @Test func toleranceOptionsAreChecked() throws {
        var tolerance = GoldenTolerance()
        try tolerance.set("threshold", .json(.number(0.2)))
        try tolerance.set("max-diff-pixels", .text("40"))
        try tolerance.set("max-diff-ratio", .json(.number(0.01)))
        try tolerance.set("count-aa", .json(.bool(true)))
        #expect(tolerance.options.threshold == 0.2 && tolerance.options.countAntialiasing)
        #expect(tolerance.limits == DiffLimits(maxPixels: 40, maxRatio: 0.01))
        for (name, value, message) in [("threshold", "1.5", "must be a number from 0 to 1, got 1.5"), ("max-diff-pixels", "-1", "must be a whole number from 0"),
                                       ("max-diff-pixels", "1e300", "must be a whole number from 0 to 1000000000000000, got 1e+300"), ("max-diff-pixels", "2.5", "is not a whole number"),
                                       ("max-diff-ratio", "nan", "is not a number"), ("count-aa", "3", "true or false"),
                                       ("bogus", "1", "not a comparison option")] {
            var copy = tolerance
            do {
                try copy.set(name, .text(value))
                Issue.record("\(name)=\(value) was accepted")
            } catch let error as OptionError {
                #expect(error.message.contains(message), "\(name)=\(value): \(error.message)")
            }
        }
    }
}
