import TestSupport
import Testing
import Typeset

/// Shaping and line layout are separate from the size-independent stages: a text prepared
/// once lays out exactly as a fresh layout at every size and width (what auto-fit relies on).
@Suite struct PreparedTextTests {
    @Test(arguments: ["en", "ar", "ja", "mixed", "hi"])
    func preparedOnceEqualsLaidOutFresh(corpus: String) throws {
        let text = try Fixtures.corpusText(corpus)
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
        let prepared = try typesetter.prepare(text, style: TypesetStyle(size: 40, width: 500))
        for (size, width) in [(40.0, 500.0), (23.25, 300.0), (71.5, 640.0)] {
            let style = TypesetStyle(size: size, width: width)
            let fresh = try typesetter.layout(text, style: style)
            let reused = try typesetter.layout(prepared, style: style)
            #expect(fresh.lines == reused.lines, "\(corpus) at \(size) px, \(width) px wide")
        }
    }
}
