import Batch
import Testing

/// A card's output name joined to its folder: relative names stay inside, empty components
/// fold away, anything leading out is refused.
@Suite struct OutputPathTests {
    @Test(arguments: [
        ("a.png", "out/a.png"), ("t3/card.png", "out/t3/card.png"), ("a//b/./c.png", "out/a/b/./c.png"),
        ("dir/", "out/dir"), ("é/ü .png", "out/é/ü .png"), ("..a/b..png", "out/..a/b..png"),
    ])
    func relativeNamesStayInside(name: String, path: String) throws {
        #expect(try BatchManifest.outputPath(name, in: "out") == path)
    }

    @Test(arguments: ["", "/etc/passwd", "../x.png", "a/../../x.png", "a/..", "//x.png", "/", "..", "a/..//b"])
    func namesLeadingOutAreRefused(name: String) {
        #expect(throws: (any Error).self) { try BatchManifest.outputPath(name, in: "out") }
    }
}
