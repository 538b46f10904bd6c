import Typeset

/// LineBreakTest.txt and GraphemeBreakTest.txt: "÷ 0061 × 0062 ÷" marks where a break is
/// allowed (÷) or not (×) before each character and at the end.
enum BreakSuites {
    /// A test line: the text and the UTF-8 offsets where it may break (the end included).
    private static func parse(_ line: Substring) -> (text: String, breaks: [Int]) {
        var text = "", breaks: [Int] = [], byte = 0
        for token in line.split(separator: " ") {
            if token == "÷" { if byte > 0 { breaks.append(byte) } }
            else if token != "×", let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) {
                text.unicodeScalars.append(scalar)
                byte += UTF8.width(scalar)
            }
        }
        return (text, breaks)
    }

    static func lines(file: String, library: FontLibrary) throws -> SuiteResult {
        var result = SuiteResult(name: "line breaks (LineBreakTest.txt, break opportunities)", bar: 1)
        let typesetter = Typesetter(library: library, font: FontSpec())
        for line in try dataLines(file) {
            let (text, expected) = parse(line)
            let prepared = try typesetter.prepare(text, style: TypesetStyle(size: 16))
            let got = prepared.lineBreakOpportunities.map(\.offset)
            // The one tailoring: a line never ends inside a grapheme cluster (Pango's rule too),
            // so a break UAX #14 allows inside one (before an emoji modifier, after a ZWJ) is
            // not taken. Listed, not counted.
            let clusters = Set(Typesetter.graphemeBoundaries(text))
            let missing = Set(expected).subtracting(got), extra = Set(got).subtracting(expected)
            if !missing.isEmpty, extra.isEmpty, missing.allSatisfy({ !clusters.contains($0) }) {
                result.excluded["exception: UAX #14 breaks inside a grapheme cluster, which no line ends in", default: 0] += 1
                continue
            }
            // ICU's tailoring (Chromium breaks lines with ICU too): numbers by LB25's regular
            // expression, so no break between "." or "," and a digit, nor after a hyphen-minus.
            if !(missing.isEmpty && extra.isEmpty), missing.union(extra).allSatisfy({ nextToNumberPunctuation(text, at: $0) }) {
                result.excluded["exception: ICU's tailoring (no break after '-', nor between '.' or ',' and a digit), Chromium's too", default: 0] += 1
                continue
            }
            result.record(got == expected, "\(line): got \(got), expected \(expected)")
        }
        return result
    }

    /// The base character before UTF-8 offset `offset` (combining marks skipped), or the one
    /// after it, is '-', ',' or '.'.
    private static func nextToNumberPunctuation(_ text: String, at offset: Int) -> Bool {
        var byte = 0, before: Unicode.Scalar?, after: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if byte < offset, scalar.properties.generalCategory != .nonspacingMark { before = scalar }
            if byte == offset { after = scalar }
            byte += UTF8.width(scalar)
        }
        return [before, after].contains { $0.map { "-,.".unicodeScalars.contains($0) } ?? false }
    }

    static func graphemes(file: String) throws -> SuiteResult {
        var result = SuiteResult(name: "grapheme clusters (GraphemeBreakTest.txt)", bar: 1)
        for line in try dataLines(file) {
            let (text, expected) = parse(line)
            let got = Typesetter.graphemeBoundaries(text)
            result.record(got == expected, "\(line): got \(got), expected \(expected)")
        }
        return result
    }
}
