import Glibc
import Synchronization
import TestSupport
import Testing
import Typeset
@testable import Render

/// The one-shot render's helper thread and what runs on it: tasks in order, waits that wait,
/// and a glyph warm-up that never changes a pixel.
@Suite struct HelperThreadTests {
    @Test func tasksRunInOrderAndWaitingWaitsForThem() {
        let helper = HelperThread()
        defer { helper.close() }
        let done = Mutex<[Int]>([])
        var last = 0
        for i in 0..<200 {
            last = helper.submit {
                if i % 50 == 0 { usleep(2_000) }  // later tasks queue up behind a slow one
                done.withLock { $0.append(i) }
            }
        }
        helper.wait(for: last)
        #expect(done.withLock { $0 } == Array(0..<200))
        // Waiting again, or for an earlier task, returns at once.
        helper.wait(for: last - 100)
        helper.wait(for: last)
    }

    @Test func aClosedHelperRunsWhatWasQueuedThenTasksRunOnTheirCaller() {
        let helper = HelperThread()
        let threads = Mutex<[pthread_t]>([])
        let first = helper.submit { usleep(5_000); threads.withLock { $0.append(pthread_self()) } }
        helper.close()
        helper.wait(for: first)
        let later = helper.submit { threads.withLock { $0.append(pthread_self()) } }
        helper.wait(for: later)
        let seen = threads.withLock { $0 }
        #expect(seen.count == 2 && pthread_equal(seen[0], pthread_self()) == 0 && pthread_equal(seen[1], pthread_self()) != 0)
    }

    @Test func eachOneShotContextHasItsOwnHelperClosedWithIt() throws {
        var a: FontContext? = try FontContext(library: Fixtures.library, prefetchFaces: true)
        let b = try FontContext(library: Fixtures.library, prefetchFaces: true)
        #expect(a!.helper != nil && b.helper != nil && a!.helper !== b.helper)
        #expect(try FontContext(library: Fixtures.library).helper == nil)
        // The context's last reference dropped by a task on its own helper: closing from the
        // helper itself must not wait for it.
        let helper = a!.helper!
        let task = helper.submit { [a] in _ = a }
        a = nil
        helper.wait(for: task)
        let after = helper.submit {}
        helper.wait(for: after)
    }

    func scene(_ text: String) throws -> Scene {
        let layout = try Fixtures.layout(text, size: 30, width: 520)
        return Scene(width: 600, height: layout.height + 40, background: .color(.white),
                         items: [.text(try PlacedText(layout: layout, x: 40, y: 20))])
    }

    @Test func warmedGlyphsDrawTheSameBytes() throws {
        let scene = try scene(try Fixtures.corpusText("mixed") + " 😀 ✓")
        var options = RenderOptions()
        options.scale = 1.5
        // Each context has faces of its own, so Cairo's caches start cold in both.
        let warmed = try FontContext(library: Fixtures.library), cold = try FontContext(library: Fixtures.library)
        let faces = try FontFaces.of(scene, in: warmed, textMapped: false)
        let helper = HelperThread()
        defer { helper.close() }
        let warmup = try #require(GlyphWarmup.start(scene, faces: faces, format: .png, scale: options.scale, helper: helper))
        warmup.finish()
        let bytes = try Renderer(fonts: warmed).render(scene, options: options)
        #expect(bytes == (try Renderer(fonts: cold).render(scene, options: options)))
    }

    @Test func warmupIsOnlyForOneShotImages() throws {
        let scene = try scene("Hello")
        let faces = try FontFaces.of(scene, in: testFonts, textMapped: false)
        let helper = HelperThread()
        defer { helper.close() }
        #expect(GlyphWarmup.start(scene, faces: faces, format: .pdf, scale: 1, helper: helper) == nil)
        #expect(GlyphWarmup.start(scene, faces: faces, format: .png, scale: 1, helper: nil) == nil)
    }

    @Test func bothEndsTakeEveryFontOnce() throws {
        let scene = try scene("abc 日本 مرحبا")
        let runs = GlyphWarmup.distinctGlyphs(scene, scale: 1)
        #expect(runs.count == 3)
        let work = GlyphWarmup.Work(runs: runs, faces: try FontFaces.of(scene, in: testFonts, textMapped: false), scale: 1)
        // The helper from the first font, the caller from the last, until they meet.
        let taken = [work.take(fromFirst: true), work.take(fromFirst: false), work.take(fromFirst: false),
                     work.take(fromFirst: true)]
        #expect(taken == [0, 2, 1, nil])
    }

    @Test func eachScaledFontsGlyphsAreListedOnce() throws {
        let scene = try scene("abba abba 日本日本")
        let runs = GlyphWarmup.distinctGlyphs(scene, scale: 1)
        // Two fonts at one size: Latin (a, b, space) and CJK (日, 本).
        #expect(runs.count == 2)
        #expect(runs.map(\.ids.count).sorted() == [2, 3])
        for run in runs { #expect(Set(run.ids).count == run.ids.count) }
    }
}
