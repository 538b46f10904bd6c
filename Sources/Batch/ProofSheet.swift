import Render
import Synchronization
import Support

/// `--pdf proofs.pdf`: every card of a run on its own page, in row order whatever order the
/// workers finish in. Cards that arrive early wait (as scenes, not pixels) until the ones
/// before them are on their page.
package final class ProofSheet: Sendable {
    private struct State {
        var document: PDFDocument
        /// Cards that arrived before their turn, with the names their failures are told by.
        var waiting: [Int: (scene: Scene?, name: String)] = [:]
        var next = 0
        var failures: [String] = []
    }

    package let path: String
    private let state: Mutex<State>
    private let describe: @Sendable (Error) -> String

    package init(path: String, options: RenderOptions, fonts: FontContext, describe: @escaping @Sendable (Error) -> String) throws {
        self.path = path
        self.describe = describe
        state = Mutex(State(document: try PDFDocument(options: options, fonts: fonts)))
    }

    /// The card at `index` (0-based among the run's cards); nil when it has no page (it failed).
    package func deliver(_ scene: Scene?, at index: Int, name: String) {
        state.withLock { state in
            state.waiting[index] = (scene, name)
            while let ready = state.waiting.removeValue(forKey: state.next) {
                if let scene = ready.scene {
                    do { try state.document.add(scene) } catch { state.failures.append("\(ready.name): \(describe(error))") }
                }
                state.next += 1
            }
        }
    }

    /// Writes the file (atomically) once every card has been delivered.
    package func finish() throws -> Int {
        try state.withLock { state in
            if let first = state.failures.first {
                throw BatchError("the proof sheet: \(state.failures.count) card(s) could not be put on a page, '\(path)' not written; first: \(first)")
            }
            guard state.document.pageCount > 0 else { throw BatchError("the proof sheet: no card rendered, '\(path)' not written") }
            try OutputFile.write(try state.document.finish(), to: path)
            return state.document.pageCount
        }
    }
}
