import Synchronization
import TestSupport
import Testing
@testable import Typeset

/// A renderer opens its drawing faces while the layout goes on: the library tells it of each
/// face as soon as a text is itemized with it, once per face for the library's life.
@Suite struct FaceObserverTests {
    @Test func eachFaceIsToldOnceAsItemizingPicksIt() throws {
        // A library of its own: the observer stays with it.
        let library = try FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false)
        let told = Mutex<[String]>([])
        library.observeNewFaces { face in told.withLock { $0.append(face.family) } }
        let typesetter = Typesetter(library: library, font: FontSpec())
        let style = TypesetStyle(size: 32, width: 600)

        _ = try typesetter.layout("日本語 and English\nрусский", style: style)
        #expect(told.withLock { $0 } == ["Noto Sans CJK JP", "Noto Sans"])

        // Known faces are not told again; a new one is, and only it.
        _ = try typesetter.layout("English, 日本語 again", style: style)
        _ = try typesetter.layout("مرحبا and English", style: style)
        #expect(told.withLock { $0 } == ["Noto Sans CJK JP", "Noto Sans", "Noto Sans Arabic"])
    }

}
