import Foundation
import Synchronization
import Highlight
import Render
import TestSupport
import Testing
import Typeset

/// The font library, shaping fonts and the Cairo/FreeType faces are shared by every thread:
/// renders running at once must give exactly the bytes a render alone gives.
@Suite struct ConcurrencyTests {
    func render(_ corpus: String, size: Double, format: OutputFormat, fonts: FontContext = testFonts) throws -> [UInt8] {
        let text = try Fixtures.corpusText(corpus)
        let typesetter = Typesetter(library: Fixtures.library, font: FontSpec())
        let layout = try typesetter.layout(text, style: TypesetStyle(size: size, width: 500))
        var options = TextCanvas()
        options.format = format
        options.highlight = HighlightPaint(style: HighlightStyle(paddingX: 8, paddingY: 2), fill: Color(parsing: "#FFD43B")!)
        options.fonts = fonts
        return try options.render(layout)
    }

    @Test func parallelRendersGiveTheSameBytes() throws {
        let jobs = [("mixed", 30.0), ("ar", 34.0), ("ja", 28.0), ("hi", 32.0), ("en", 26.0), ("ru", 30.0)]
        let expected = try jobs.map { try render($0.0, size: $0.1, format: .png) }
        let results = Mutex<[Int: [UInt8]]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: jobs.count * 4) { i in
            let job = jobs[i % jobs.count]
            do {
                let bytes = try render(job.0, size: job.1, format: .png)
                results.withLock { $0[i] = bytes }
            } catch {
                failures.withLock { $0.append("\(job.0): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let all = results.withLock { $0 }
        for i in 0..<(jobs.count * 4) {
            #expect(all[i] == expected[i % jobs.count], "render \(i) (\(jobs[i % jobs.count].0)) differs")
        }
    }

    /// A context that keeps one font's faces lets the others go while renders on other threads
    /// still draw with them: each render holds its faces until it is done.
    @Test func evictedFacesStayValidForRendersInFlight() throws {
        let jobs = [("mixed", 30.0), ("ar", 34.0), ("ja", 28.0), ("hi", 32.0)]
        let expected = try jobs.map { try render($0.0, size: $0.1, format: .png) }
        let tiny = try FontContext(library: Fixtures.library, faceLimit: 1)
        let results = Mutex<[Int: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count * 6) { i in
            let job = jobs[i % jobs.count]
            let bytes = try? render(job.0, size: job.1, format: i % 3 == 0 ? .pdf : .png, fonts: tiny)
            results.withLock { $0[i] = bytes }
        }
        let all = results.withLock { $0 }
        for i in 0..<(jobs.count * 6) where i % 3 != 0 {
            #expect(all[i] == expected[i % jobs.count], "render \(i) (\(jobs[i % jobs.count].0)) differs")
        }
        #expect((0..<(jobs.count * 6)).allSatisfy { all[$0] != nil }, "every render finished")
    }
}
