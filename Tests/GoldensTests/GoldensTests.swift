import Compare
@testable import Goldens
import Testing
import Support

@Suite struct GoldensTests {
    /// FIPS 180-2 examples, and a message that needs a second padding block.
    @Test func sha256KnownVectors() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func junitEscapesMarkupLineBreaksAndControls() {
        #expect(JUnitReport.escape("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;")
        #expect(JUnitReport.escape("one\r\ntwo\tthree\u{1}") == "one&#13;&#10;two&#9;three\u{FFFD}")
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
                                       ("max-diff-pixels", "1e300", "is not a whole number"), ("max-diff-pixels", "2.5", "is not a whole number"),
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
