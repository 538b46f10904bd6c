import Typeset

/// BidiCharacterTest.txt: each line laid out as one paragraph (no wrapping) in its direction;
/// the visual order is read from the laid-out line's runs as the layout dump gives them
/// (visual order, byte range, bidi level): a run at an odd level shows its characters reversed.
enum BidiSuite {
    static func run(file: String, library: FontLibrary) throws -> SuiteResult {
        var result = SuiteResult(name: "bidi (BidiCharacterTest.txt, visual order)", bar: 0.999)
        let typesetter = Typesetter(library: library, font: FontSpec())
        for line in try dataLines(file) {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count >= 5 else { continue }
            let chars = scalars(fields[0])
            let direction: BaseDirection = fields[1] == "0" ? .ltr : fields[1] == "1" ? .rtl : .auto
            let levels = fields[3].split(separator: " ").map { $0 == "x" ? nil : Int($0) }
            let expected = fields[4].split(separator: " ").compactMap { Int($0) }
            var text = ""
            text.unicodeScalars.append(contentsOf: chars)
            // Byte offset -> character index.
            var indexAt: [Int: Int] = [:]
            var byte = 0
            for (i, scalar) in chars.enumerated() {
                indexAt[byte] = i
                byte += UTF8.width(scalar)
            }
            let layout = try typesetter.layout(text, style: TypesetStyle(size: 16, direction: direction))
            var order: [Int] = []
            for laid in layout.lines {
                for run in laid.runs {
                    var indices = (run.start..<run.end).compactMap { indexAt[$0] }
                    if run.level & 1 == 1 { indices.reverse() }
                    order += indices
                }
            }
            // Characters X9 removes (level "x") have no place in the expected order.
            order = order.filter { $0 < levels.count && levels[$0] != nil }
            result.record(order == expected, "\(fields[0]) dir \(fields[1]): expected \(expected), got \(order)")
        }
        return result
    }
}
