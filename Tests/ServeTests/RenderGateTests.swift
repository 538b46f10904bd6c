import Card
import Dispatch
import Foundation
import Render
@testable import Serve
import Support
import TestSupport
import Testing
import Typeset

extension RenderGate {
    /// A job run with a deadline `timeout` from now.
    func run<T: Sendable>(timeout: Duration, _ work: @escaping @Sendable (Job) throws -> T) async throws -> T {
        let job = job(deadline: .now + timeout)
        return try await run(job) { try work(job) }
    }
}

/// A deadline no test reaches: in the whole suite a test's tasks wait tens of seconds for the
/// cooperative pool, and a job's deadline runs from its making (30 s were once reached).
let longEnough = Duration.seconds(3600)

/// Work that runs until it is cancelled, as a render between its checks does.
@Sendable func spinUntilCancelled(_ job: RenderGate.Job) throws -> Int {
    while true {
        try job.cancellation.check()
        usleep(1000)
    }
}

/// The gate alone: slots, queue, deadlines, cancellation and the memory budget.
@Suite struct RenderGateTests {
    @Test func queueThenRefuse() async throws {
        let gate = RenderGate(limit: 1, queue: 1)
        let release = DispatchSemaphore(value: 0)
        async let first = gate.run(timeout: longEnough) { _ in release.wait(); return 1 }
        while gate.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        async let second = gate.run(timeout: longEnough) { _ in 2 }
        while gate.depth < 1 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: RenderGate.Overloaded.self) { try await gate.run(timeout: longEnough) { _ in 3 } }
        release.signal()
        #expect(try await first == 1)
        #expect(try await second == 2)
        #expect(gate.running == 0 && gate.depth == 0)
    }

    /// Work that ignores its cancellation keeps the slot, counted as stuck (readyz says 503).
    @Test func aRenderPastItsDeadlineIsStuckUntilItEnds() async throws {
        let gate = RenderGate(limit: 1, queue: 0)
        let release = DispatchSemaphore(value: 0)
        await #expect(throws: RenderGate.TimedOut.self) { try await gate.run(timeout: .milliseconds(20)) { _ in release.wait() } }
        #expect(gate.running == 1, "the slot stays taken until the render ends")
        #expect(gate.allStuck)
        release.signal()
        while gate.running > 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!gate.allStuck)
    }

    /// Fault 6: a render past its deadline is cancelled and gives its slot to the next job
    /// (before, the spinning work held the only slot for ever and the next job timed out).
    @Test func aTimedOutRenderIsCancelledAndFreesItsSlot() async throws {
        let gate = RenderGate(limit: 1, queue: 1)
        await #expect(throws: RenderGate.TimedOut.self) { try await gate.run(timeout: .milliseconds(50), spinUntilCancelled) }
        #expect(try await gate.run(timeout: longEnough) { _ in 7 } == 7)
        #expect(!gate.allStuck && gate.running == 0)
    }

    /// A queued job has a deadline too: it leaves the queue with 503 instead of waiting for ever.
    @Test func aQueuedJobTimesOutInTheQueue() async throws {
        let gate = RenderGate(limit: 1, queue: 1)
        let release = DispatchSemaphore(value: 0)
        async let first = gate.run(timeout: longEnough) { _ in release.wait(); return 1 }
        while gate.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        do {
            _ = try await gate.run(timeout: .milliseconds(50)) { _ in 2 }
            Issue.record("the queued job ran")
        } catch let error as RenderGate.TimedOut {
            #expect(error.queued)
        }
        #expect(gate.depth == 0)
        release.signal()
        #expect(try await first == 1)
    }

    /// A client that leaves abandons its job: out of the queue at once, or its render cancelled.
    @Test func anAbandonedJobLeavesTheQueueAndStopsItsRender() async throws {
        let gate = RenderGate(limit: 1, queue: 1)
        let running = gate.job(deadline: .now + longEnough)
        let first = Task { try await gate.run(running) { try spinUntilCancelled(running) } }
        while gate.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        let waiting = gate.job(deadline: .now + longEnough)
        let second = Task { try await gate.run(waiting) { 2 } }
        while gate.depth < 1 { try await Task.sleep(for: .milliseconds(5)) }
        gate.abandon(waiting)
        await #expect(throws: RenderGate.Abandoned.self) { try await second.value }
        #expect(gate.depth == 0)
        gate.abandon(running)
        await #expect(throws: Cancellation.Cancelled.self) { try await first.value }
        #expect(try await gate.run(timeout: longEnough) { _ in 3 } == 3)
    }

    /// A job past its deadline stops at its next check by itself: the timer that answers the
    /// client may run late on a loaded machine, and the render must not go on meanwhile.
    @Test func aJobPastItsDeadlineStopsAtItsNextCheck() throws {
        let gate = RenderGate(limit: 1, queue: 0)
        let job = gate.job(deadline: .now + .milliseconds(20))
        try job.cancellation.check()
        usleep(30_000)
        #expect(job.cancellation.isCancelled)
        #expect(throws: Cancellation.Cancelled.self) { try job.cancellation.check() }
        #expect(!gate.job(deadline: .now + longEnough).cancellation.isCancelled)
    }

    /// Issue 35, finding 5's liveness answer: a render that never returns (a C library blocked
    /// for good) is answered at its deadline, and its slot then counts as stuck for as long as
    /// it stays; `/healthz` fails past four timeouts (at least a minute), so an orchestrator
    /// restarts the service. The rule is checked with durations, the gate with a render that
    /// blocks until the test lets it go.
    @Test func aRenderThatNeverReturnsFailsLivenessOnceStuckPastTheLimit() async throws {
        let gate = RenderGate(limit: 1, queue: 0)
        let release = DispatchSemaphore(value: 0)
        await #expect(throws: RenderGate.TimedOut.self) {
            _ = try await gate.run(timeout: .milliseconds(50)) { _ in release.wait(); return 1 }
        }
        #expect(gate.allStuck)
        let first = gate.longestStuck
        try await Task.sleep(for: .milliseconds(100))
        #expect(gate.longestStuck >= first + .milliseconds(100), "stuck time grows while the render holds its slot")
        release.signal()
        for _ in 0..<200 where gate.allStuck { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!gate.allStuck && gate.longestStuck == .zero, "the slot is free once the render returns")

        #expect(Routes.liveness(stuck: .zero, timeoutMilliseconds: 10_000) == nil)
        #expect(Routes.liveness(stuck: .seconds(59), timeoutMilliseconds: 10_000) == nil)
        #expect(Routes.liveness(stuck: .seconds(61), timeoutMilliseconds: 10_000)?.contains("stuck for 61 s (limit 60 s)") == true)
        #expect(Routes.liveness(stuck: .seconds(100), timeoutMilliseconds: 30_000) == nil, "four 30 s timeouts")
        #expect(Routes.liveness(stuck: .seconds(121), timeoutMilliseconds: 30_000) != nil)
    }

    /// Request bodies are a share of the one budget: what they hold, renders cannot, so bodies
    /// and renders together stay within `--memory-mb` (a soak peaked at idle + 512 + 128 MB when
    /// bodies had a budget of their own beside the renders').
    @Test func bodiesAreAShareOfTheRendersBudget() throws {
        let memory = MemoryBudget(bytes: 100)
        let bodies = MemoryBudget(bytes: 25, within: memory)
        let body = bodies.lease()
        try body.reserve(20)
        #expect(memory.inUse == 20 && bodies.inUse == 20)
        #expect(throws: MemoryBudget.Exceeded.self) { try bodies.lease().reserve(10) }
        let render = memory.lease()
        #expect(throws: MemoryBudget.Exceeded.self) { try render.reserve(81) }
        try render.reserve(80)
        // The share has room, the whole has none: refused, and nothing is left taken.
        #expect(throws: MemoryBudget.Exceeded.self) { try bodies.lease().reserve(5) }
        #expect(memory.inUse == 100 && bodies.inUse == 20)
        body.end()
        #expect(memory.inUse == 80 && bodies.inUse == 0)
        render.end()
        #expect(memory.inUse == 0)
    }

    /// The budget: reserved bytes come back when the work ends, whatever happened to the request.
    @Test func memoryComesBackWhenTheWorkEnds() async throws {
        let gate = RenderGate(limit: 2, queue: 0, budget: MemoryBudget(bytes: 100))
        let job = gate.job(deadline: .now + longEnough)
        try job.memory?.reserve(60)
        #expect(throws: MemoryBudget.Exceeded.self) { try gate.job(deadline: .now + longEnough).memory?.reserve(50) }
        #expect(gate.memoryInUse == 60)
        _ = try await gate.run(job) { 1 }
        #expect(gate.memoryInUse == 0)
        let tooLarge = #expect(throws: MemoryBudget.Exceeded.self) { try gate.job(deadline: .now + longEnough).memory?.reserve(101) }
        #expect(tooLarge?.neverFits == true)
    }
}

/// The card library stops at its checks once cancelled, and reserves its drawing memory.
@Suite struct CardCancellationTests {
    let engine: Engine

    init() throws {
        engine = Engine(world: World(fonts: try FontContext(library: FontLibrary(directories: [Fixtures.fonts], includeSystemFonts: false))) { _ in [] })
    }

    @Test func aCancelledRenderThrowsAtItsFirstCheck() throws {
        var cancelled = Job(format: .png)
        cancelled.cancellation = Cancellation()
        cancelled.cancellation?.cancel()
        let spec = try CardSpec.parse(.object([("size", .string("600x300")), ("blocks", .array([
            .object([("type", .string("text")), ("text", .string("one\ntwo"))]),
        ]))]), folder: ".", linkSchemes: LinkSchemes())
        #expect(throws: Cancellation.Cancelled.self) { try engine.render(spec, job: cancelled) }
        #expect(try engine.render(spec, job: Job(format: .png)).bytes.count > 0)
    }

    /// Cancelled from another thread while a long text is fitted: the render stops early with
    /// `Cancelled` (a render that ran on would end with an image or a "does not fit" error).
    /// The text takes many seconds to fit, so a cancellation that a loaded machine delivers late
    /// still comes midway.
    @Test func aRenderCancelledMidwayStops() throws {
        let paragraphs = (0..<30_000).map { "paragraph \($0) " + String(repeating: "lorem ipsum dolor ", count: 12) }.joined(separator: "\n")
        let spec = try CardSpec.parse(.object([("size", .string("1080x1920")), ("blocks", .array([
            .object([("type", .string("text")), ("text", .string(paragraphs)),
                     ("fit", .object([("height", .number(1800)), ("min-size", .number(6))]))]),
        ]))]), folder: ".", linkSchemes: LinkSchemes())
        var cancellable = Job(format: .png)
        let cancellation = Cancellation()
        cancellable.cancellation = cancellation
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { cancellation.cancel() }
        #expect(throws: Cancellation.Cancelled.self) { try engine.render(spec, job: cancellable) }
    }

    @Test func drawingMemoryIsReservedAfterLayout() throws {
        var budgeted = Job(format: .png)
        let budget = MemoryBudget(bytes: 8 << 20)
        budgeted.memory = budget.lease()
        let spec = try CardSpec.parse(.object([("size", .string("2000x2000")), ("blocks", .array([]))]), folder: ".", linkSchemes: LinkSchemes())
        let refusal = #expect(throws: MemoryBudget.Exceeded.self) { try engine.render(spec, job: budgeted) }
        #expect(refusal?.neverFits == true)
        #expect(budget.inUse == 0, "a refused reservation takes nothing")
    }
}

/// Issue 35: heavy requests (large bodies) never take the last free slot, so small cards do
/// not wait behind hogs that run to their deadline.
@Suite struct RenderGateLaneTests {
    @Test func aLightJobFindsTheSlotHeavyOnesLeave() async throws {
        let gate = RenderGate(limit: 2, queue: 4)
        let release = DispatchSemaphore(value: 0)
        let heavy = { gate.job(deadline: .now + longEnough, heavy: true) }
        let first = heavy(), second = heavy()
        async let a = gate.run(first) { release.wait(); return 1 }
        while gate.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        async let b = gate.run(second) { release.wait(); return 2 }
        while gate.depth < 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(gate.running == 1, "the second heavy job waits: one slot stays for light work")
        let light = try await gate.run(timeout: longEnough) { _ in 3 }
        #expect(light == 3)
        release.signal()
        release.signal()
        #expect(try await a == 1)
        #expect(try await b == 2)
        #expect(gate.running == 0 && gate.depth == 0)
    }

    @Test func withOneSlotHeavyJobsStillRun() async throws {
        let gate = RenderGate(limit: 1, queue: 1)
        let job = gate.job(deadline: .now + longEnough, heavy: true)
        #expect(try await gate.run(job) { 7 } == 7)
    }
}
