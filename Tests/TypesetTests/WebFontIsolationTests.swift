import Synchronization
import Support
import Testing
import TestSupport
@testable import Typeset

/// A WOFF or WOFF2 file a spec names is decoded by FreeType, third-party code reading a file a
/// request chose: a library given an `Isolation` (a service's decoder worker) sends the
/// decoding there, Fontconfig's query included, and gets the same font back.
@Suite struct WebFontIsolationTests {
    static let webfonts = Fixtures.repo.appendingPathComponent("Tests/CLITests/Fixtures/webfonts").path

    @Test(arguments: ["NotoSansLatin.woff", "NotoSansLatin.woff2"])
    func aWebFontIsDecodedWhereTheIsolationSays(name: String) throws {
        let calls = Mutex<[String]>([])
        let isolation = Isolation { call, _ in
            calls.withLock { $0.append(call.task) }
            return try WebFontTasks.sfnt(call.fields)
        }
        let file = "\(Self.webfonts)/\(name)"
        let isolated = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false, isolation: isolation)
        let local = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false)
        let spec = FontSpec(file: file)
        let style = TypesetStyle(size: 40)
        let there = try Typesetter(library: isolated, font: spec).layout("Hamburgefonts", style: style)
        let here = try Typesetter(library: local, font: spec).layout("Hamburgefonts", style: style)
        // Decoded once (the query and the shaping share the blob), and nowhere else.
        #expect(calls.withLock { $0 } == [WebFontTasks.sfnt])
        #expect(there.fonts.map(\.family) == here.fonts.map(\.family) && there.fonts.first?.family == "Noto Sans")
        #expect(there.lines.flatMap { $0.runs.flatMap { $0.glyphs.map(\.id) } } == here.lines.flatMap { $0.runs.flatMap { $0.glyphs.map(\.id) } })
        #expect(there.width == here.width)
    }

    /// A worker that fails (a crash, a limit) is a one-line refusal naming the file.
    @Test func aFailedDecodingNamesTheFile() throws {
        let isolation = Isolation { _, _ in throw IsolationError(.crashed, "the web font decoder (FreeType) ended by a crash (signal 11)") }
        let library = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false, isolation: isolation)
        #expect {
            _ = try Typesetter(library: library, font: FontSpec(file: "\(Self.webfonts)/NotoSansLatin.woff2")).layout("hi", style: TypesetStyle(size: 20))
        } throws: { error in
            "\(error)".contains("NotoSansLatin.woff2") && "\(error)".contains("crash")
        }
    }
}
