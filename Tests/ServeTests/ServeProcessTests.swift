import Dispatch
import Foundation
@testable import Serve
import TestSupport
import Testing

/// The gate alone: one slot, one place in the queue.
@Suite struct RenderGateTests {
    @Test func queueThenRefuse() async throws {
        let gate = RenderGate(limit: 1, queue: 1)
        let release = DispatchSemaphore(value: 0)
        async let first = gate.run(timeout: .seconds(30)) { release.wait(); return 1 }
        while gate.running < 1 { try await Task.sleep(for: .milliseconds(5)) }
        async let second = gate.run(timeout: .seconds(30)) { 2 }
        while gate.depth < 1 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: RenderGate.Overloaded.self) { try await gate.run(timeout: .seconds(30)) { 3 } }
        release.signal()
        #expect(try await first == 1)
        #expect(try await second == 2)
        #expect(gate.running == 0 && gate.depth == 0)
    }

    @Test func timeoutFiresWhileTheSlotIsBusy() async throws {
        let gate = RenderGate(limit: 1, queue: 0)
        let release = DispatchSemaphore(value: 0)
        await #expect(throws: RenderGate.TimedOut.self) { try await gate.run(timeout: .milliseconds(20)) { release.wait() } }
        #expect(gate.running == 1, "the slot stays taken until the render ends")
        release.signal()
        while gate.running > 0 { try await Task.sleep(for: .milliseconds(5)) }
    }
}

/// The real binary: SIGTERM while a request is in flight lets it finish, then exits 0.
@Suite struct ServeProcessTests {
    @Test func gracefulShutdownFinishesTheRequestInFlight() async throws {
        let dir = try CLI.scratchFolder()
        let server = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("hlrender-serve").path
        #expect(FileManager.default.isExecutableFile(atPath: server))
        let port = 20_000 + Int.random(in: 0..<20_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve", "--port", "\(port)", "--font-dir", Fixtures.fonts]
        let log = Pipe()
        process.standardError = log
        process.standardOutput = log
        try process.run()
        // Ready when /healthz answers.
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? runTool("/usr/bin/curl", ["-sf", "http://127.0.0.1:\(port)/healthz"]).status) == 0
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(ready)
        // A slow card (large, shadowed) in flight, then SIGTERM.
        let spec = #"{"size": "3000x3000", "padding": 8, "blocks": [{"type": "text", "text": "\#(String(repeating: "slow ", count: 60))", "size": 40, "shadow": "0,0,40,#000000"}]}"#
        try Data(spec.utf8).write(to: dir.appendingPathComponent("slow.json"))
        let out = dir.appendingPathComponent("slow.png").path
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-o", out, "-w", "%{http_code}", "-H", "Content-Type: application/json",
                          "--data-binary", "@" + dir.appendingPathComponent("slow.json").path, "http://127.0.0.1:\(port)/v1/card"]
        let status = Pipe()
        curl.standardOutput = status
        try curl.run()
        try await Task.sleep(for: .milliseconds(150))
        kill(process.processIdentifier, SIGTERM)
        curl.waitUntilExit()
        process.waitUntilExit()
        let code = String(decoding: status.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(code == "200", "the request in flight got \(code)")
        #expect(process.terminationStatus == 0)
        #expect(try PNGHeader.size(of: Data(contentsOf: URL(fileURLWithPath: out))) == (3000, 3000))
        let logged = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(logged.contains("route=/v1/card status=200"), "\(logged)")
    }
}

/// Width and height from a PNG's IHDR.
enum PNGHeader {
    static func size(of data: Data) -> (Int, Int) {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24 else { return (0, 0) }
        let be = { (i: Int) in Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        return (be(16), be(20))
    }
}
