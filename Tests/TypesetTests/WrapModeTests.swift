import TestSupport
import Testing
import Typeset

/// balance and pretty against greedy, over many texts and widths (a seeded generator, so a
/// failure repeats).
@Suite struct WrapModeTests {
    let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
    let words = ["story", "a", "highlight", "hugs", "every", "line", "never", "seam", "day", "people", "Истории", "物語は",
                 "القصص", "look", "stays", "with", "them", "forever", "and"]

    func layout(_ text: String, width: Double, _ mode: WrapMode) throws -> Layout {
        var style = TypesetStyle(size: 30, width: width)
        style.wrap = mode
        return try typesetter.layout(text, style: style)
    }

    @Test func balanceKeepsTheLineCountAndNarrowsTheWidest() throws {
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        for _ in 0..<60 {
            let text = (0..<(3 + next(14))).map { _ in words[next(words.count)] }.joined(separator: " ")
            let width = Double(160 + next(400))
            let greedy = try layout(text, width: width, .greedy), balanced = try layout(text, width: width, .balance)
            #expect(balanced.lines.count == greedy.lines.count, "\(text) at \(width)")
            #expect((balanced.lines.map(\.width).max() ?? 0) <= (greedy.lines.map(\.width).max() ?? 0) + 1e-9, "\(text) at \(width)")
            #expect(balanced.width == width, "the block keeps its width")
            let pretty = try layout(text, width: width, .pretty)
            #expect(pretty.lines.count == greedy.lines.count)
        }
    }

    @Test func prettyPullsAWordDown() throws {
        let text = "A highlight should hug every line and never leave a seam behind"
        var style = TypesetStyle(size: 36, width: 340)
        let greedy = try typesetter.layout(text, style: style)
        style.wrap = .pretty
        let pretty = try typesetter.layout(text, style: style)
        #expect(greedy.lines.last?.text == "behind")
        #expect(pretty.lines.count == greedy.lines.count)
        #expect(pretty.lines.last?.text == "seam behind")
    }

    @Test func modesWorkWithCJKAndRightToLeft() throws {
        for corpus in ["ja", "ar", "mixed"] {
            let text = try Fixtures.corpusText(corpus)
            let greedy = try layout(text, width: 420, .greedy)
            for mode in [WrapMode.balance, .pretty] {
                let other = try layout(text, width: 420, mode)
                #expect(other.lines.count == greedy.lines.count, "\(corpus) \(mode)")
                #expect(other.lines.allSatisfy { $0.width <= 420 + 1e-6 })
            }
        }
    }
}
