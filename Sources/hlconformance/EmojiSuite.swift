import Typeset

/// emoji-test.txt: every fully-qualified sequence is one grapheme cluster drawn as one glyph of
/// the colour emoji font (a sequence the pinned font has no glyph for is not counted);
/// emoji-variation-sequences.txt: a base with VS15 is drawn by a text font where one covers it.
enum EmojiSuite {
    static func sequences(file: String, library: FontLibrary) throws -> SuiteResult {
        var result = SuiteResult(name: "emoji (emoji-test.txt, fully-qualified: one cluster, one colour glyph)", bar: 1)
        let typesetter = Typesetter(library: library, font: FontSpec())
        for line in try dataLines(file) {
            let fields = line.split(separator: ";")
            guard fields.count == 2, fields[1].trimmingCharacters(in: .whitespaces) == "fully-qualified" else { continue }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars(fields[0]))
            let layout = try typesetter.layout(text, style: TypesetStyle(size: 32))
            let runs = layout.lines.flatMap(\.runs)
            let glyphs = runs.flatMap(\.glyphs)
            if glyphs.contains(where: { $0.id == 0 }) {
                result.excluded["sequences the pinned emoji font has no glyph for", default: 0] += 1
                continue
            }
            let ok = Typesetter.graphemeBoundaries(text) == [text.utf8.count] && glyphs.count == 1
                && runs.count == 1 && layout.fonts[runs[0].font].isColor
            result.record(ok, "\(fields[0]): \(glyphs.count) glyphs in \(runs.map { layout.fonts[$0.font].family })")
        }
        return result
    }

    static func textStyle(file: String, library: FontLibrary) throws -> SuiteResult {
        var result = SuiteResult(name: "emoji VS15/VS16 (emoji-variation-sequences.txt: text style drawn by a text font, emoji style by the colour font)", bar: 1)
        let typesetter = Typesetter(library: library, font: FontSpec())
        for line in try dataLines(file) {
            let fields = line.split(separator: ";")
            guard fields.count >= 2 else { continue }
            let wantsText = fields[1].contains("text style")
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars(fields[0]))
            let layout = try typesetter.layout(text, style: TypesetStyle(size: 32))
            let runs = layout.lines.flatMap(\.runs)
            guard !runs.flatMap(\.glyphs).contains(where: { $0.id == 0 }) else {
                result.excluded["sequences no pinned font has a glyph for", default: 0] += 1
                continue
            }
            let colour = runs.contains { layout.fonts[$0.font].isColor }
            if wantsText && colour {
                // Only the colour font has the character: there is no text face to honour VS15 with.
                let plain = try typesetter.layout(String(text.unicodeScalars.first!), style: TypesetStyle(size: 32))
                if plain.lines.flatMap(\.runs).allSatisfy({ plain.fonts[$0.font].isColor }) {
                    result.excluded["text-style sequences only the colour font covers", default: 0] += 1
                    continue
                }
            }
            result.record(wantsText != colour, "\(fields[0]) (\(wantsText ? "text" : "emoji") style): drawn by \(runs.map { layout.fonts[$0.font].family })")
        }
        return result
    }
}
