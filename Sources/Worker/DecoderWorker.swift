import Glibc
import Support

/// The parent's side of the decoder worker: each `Isolation.Call` runs in a new process of the
/// hlrender binary itself (`--decode-worker TASK`), which limits its own CPU time and address
/// space before it reads a byte of the call. The call is killed when the caller's
/// cancellation is set (a request's deadline, a client gone) or past `seconds`; a crash, a kill
/// or a limit reached is an `IsolationError` for that call alone.
package struct DecoderWorker: Sendable {
    /// The binary that answers `--decode-worker` (hlrender or hlrender-serve).
    package var executable: String
    /// CPU seconds a call may use, and wall-clock seconds it may take.
    package var seconds: Int
    /// Address space the process needs before any call's own memory: the mapped binary, the
    /// libraries, stacks and the allocator's reservations.
    package var baselineBytes = 256 << 20

    package init(executable: String, seconds: Int) {
        (self.executable, self.seconds) = (executable, max(1, seconds))
    }

    /// The runner to put in an `Isolation`.
    package var isolation: Isolation {
        let worker = self
        return Isolation { call, cancellation in try worker.run(call, cancellation: cancellation) }
    }

    package func run(_ call: Isolation.Call, cancellation: Cancellation?) throws -> [UInt8] {
        let memory = baselineBytes + max(0, call.memoryBytes)
        let arguments = [WorkerMain.flag, call.task, "--cpu-seconds", String(seconds), "--memory-bytes", String(memory)]
        let result: ChildProcess.Result
        do {
            // One malloc arena: each thread's own would reserve 64 MB of address space. No Swift
            // backtracer: its handlers catch a crash signal and return, so a signal sent by
            // kill() left the worker running, and it would start a symbolicator under the limits.
            result = try ChildProcess.run(executable, arguments, environment: ["MALLOC_ARENA_MAX": "1", "LC_ALL": "C", "SWIFT_BACKTRACE": "enable=no"],
                                          stdin: call.fields.encoded,
                                          stop: .init(seconds: Double(seconds), cancellation: cancellation),
                                          // The answer is held here: no more than the call reserved.
                                          outputLimit: max(1 << 20, call.memoryBytes), expectedOutput: call.answerBytes)
        } catch {
            throw IsolationError(.unavailable, "the decoder worker could not start: \(error)")
        }
        try cancellation.check()
        let what = WorkerMain.describe(call.task)
        if result.overflowed { throw IsolationError(.crashed, "\(what) answered more than the \(max(1 << 20, call.memoryBytes) >> 20) MB reserved for it") }
        if result.stopped { throw IsolationError(.crashed, "\(what) was stopped after \(seconds) s") }
        if result.signalled {
            let why = result.status == SIGXCPU || result.status == SIGKILL ? "at its CPU-time limit (\(seconds) s)"
                : result.status == SIGSEGV || result.status == SIGABRT || result.status == SIGBUS ? "by a crash (signal \(result.status)), at most \(memory >> 20) MB"
                : "by signal \(result.status)"
            throw IsolationError(.crashed, "\(what) ended \(why)")
        }
        guard result.status == 0 else {
            // The worker's own line is its last (a library may have warned before it).
            let line = String(decoding: result.stderr.suffix(400), as: UTF8.self).split(separator: "\n").last.map(String.init)
            throw IsolationError(.refused, line ?? "\(what) failed (exit \(result.status))")
        }
        return result.stdout
    }
}
