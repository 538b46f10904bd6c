import Foundation
import Typeset

// hlconformance UNICODE_DIR FONTS_DIR: hlrender's text layout against Unicode's own conformance
// files (Debian's unicode-data: BidiCharacterTest, LineBreakTest, GraphemeBreakTest,
// emoji-test, emoji-variation-sequences). Prints each suite's pass count; exits 1 when a suite
// is below its bar (bidi 99.9% of lines, breaks 100% but the listed exceptions, emoji 100% of
// the sequences the pinned emoji font covers).
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: hlconformance UNICODE_DIR FONTS_DIR\n".utf8))
    exit(2)
}
let (unicode, fonts) = (arguments[1], arguments[2])
do {
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("hlconformance-fontconfig").path
    let library = try FontLibrary(directories: [URL(fileURLWithPath: fonts).standardizedFileURL.path], includeSystemFonts: false,
                                  cacheDirectory: cache)
    var results: [SuiteResult] = []
    results.append(try BidiSuite.run(file: unicode + "/BidiCharacterTest.txt", library: library))
    results.append(try BreakSuites.lines(file: unicode + "/auxiliary/LineBreakTest.txt", library: library))
    results.append(try BreakSuites.graphemes(file: unicode + "/auxiliary/GraphemeBreakTest.txt"))
    results.append(try EmojiSuite.sequences(file: unicode + "/emoji/emoji-test.txt", library: library))
    results.append(try EmojiSuite.textStyle(file: unicode + "/emoji/emoji-variation-sequences.txt", library: library))
    results.forEach { print($0.report) }
    exit(results.allSatisfy(\.meetsBar) ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("hlconformance: \(error)\n".utf8))
    exit(2)
}
