import Support
import Testing
@testable import Card

/// Markup's spans share one style per distinct tag: a long marked-up document has tens of
/// thousands of spans and a handful of tags, and a style per span once held 1.5 KB each.
@Suite struct RichTextMarkupTests {
    @Test func spansOfOneTagShareTheirStyle() throws {
        let markup = (0..<500).map { "<b>bold \($0)</b> and <span color=\"#C33764\">red</span> and <span color=\"#3366CC\">blue</span>" }
            .joined(separator: " ")
        let rich = try RichText(markup: markup, linkSchemes: LinkSchemes())
        #expect(rich.spans.count == 1_500)
        let styles = Set(rich.spans.map { ObjectIdentifier($0.style) })
        #expect(styles.count == 3)
        // Shared, yet each span keeps its own settings: the colours stay apart.
        let colours = Set(rich.spans.compactMap { $0.settings.color?.description })
        #expect(colours.count == 2, "\(colours)")
    }

    /// A bad value is reported where it first appears, as before the sharing.
    @Test func aBadValueIsReportedAtItsFirstPlace() {
        #expect(throws: OptionError.self) { try RichText(markup: "ok <span color=\"nope\">x</span> <span color=\"nope\">y</span>", linkSchemes: LinkSchemes()) }
        do {
            _ = try RichText(markup: "ok <span color=\"nope\">x</span>\n<span color=\"nope\">y</span>", linkSchemes: LinkSchemes())
            Issue.record("a bad colour was taken")
        } catch {
            #expect("\(error)".hasPrefix("line 1, column 10: color:"), "\(error)")
        }
    }
}
