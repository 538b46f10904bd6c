// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Dispatch
import Foundation
import Glibc
@testable import Serve
import TestSupport
import Testing

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

/// A port another process holds: one line in the system's words, exit 3.
@Suite struct ServePortTests {
    @Test func aPortInUseIsOneClearLine() throws {
        // Hold a port with a plain listening socket.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(fd, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try CLI.run(["serve", "--port", "\(port)", "--font-dir", Fixtures.fonts], pinnedFonts: false)
        #expect(result.status == 3)
        #expect(result.stderr == "hlrender: error: cannot serve on 127.0.0.1:\(port): Address already in use\n", "\(result.stderr)")
    }
}

/// `hlrender serve --help` answers from the option table even where the service binary is not
/// built yet; running it there says how to build it.
@Suite struct ServeHelpTests {
    @Test func helpWorksWithoutTheServiceBinary() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("hlrender").path
        try FileManager.default.copyItem(atPath: CLI.binary, toPath: alone)
        let help = try runTool(alone, ["serve", "--help"])
        #expect(help.status == 0 && help.output.contains("--port <n>") && help.output.contains("--concurrency"), "\(help.output)")
        let run = try runTool(alone, ["serve", "--port", "9"])
        #expect(run.status == 3)
    }
}

/// Clients that hold a connection by saying nothing, or by trickling a body, are cut off
/// after the read timeout (the real binary: the router test client has no sockets).
@Suite struct SlowClientTests {
    /// Sends `head`, then one byte every `every` ms (never, when nil); returns what the server
    /// answered and after how many seconds it answered or closed.
    static func hold(port: Int, head: String, every: Int?) throws -> (String, Double) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestFailure("cannot connect") }
        let start = Date()
        _ = Array(head.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        while Date().timeIntervalSince(start) < 20 {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(every ?? 200)) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                received += buffer.prefix(n)
                if received.count > 12 { break }
            } else if every != nil {
                _ = send(fd, " ", 1, Int32(MSG_NOSIGNAL))
            }
        }
        return (String(decoding: received, as: UTF8.self), Date().timeIntervalSince(start))
    }

    @Test func silentAndTricklingClientsAreCutOff() async throws {
        let port = 20_000 + Int.random(in: 0..<20_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve", "--port", "\(port)", "--font-dir", Fixtures.fonts, "--read-timeout-ms", "1000"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? runTool("/usr/bin/curl", ["-sf", "http://127.0.0.1:\(port)/healthz"]).status) == 0
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(ready)
        let post = "POST /v1/card HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"bl"
        let partialHeader = try Self.hold(port: port, head: "GET /healthz HTTP/1.1\r\nHost:", every: nil)
        #expect(partialHeader.1 < 5, "a half-sent header held the connection \(partialHeader.1) s")
        let silentBody = try Self.hold(port: port, head: post, every: nil)
        #expect(silentBody.1 < 5, "a stalled body held the connection \(silentBody.1) s")
        let trickle = try Self.hold(port: port, head: post, every: 300)
        #expect(trickle.0.hasPrefix("HTTP/1.1 408") && trickle.1 < 5, "\(trickle)")
        // The service still serves.
        #expect((try runTool("/usr/bin/curl", ["-sf", "http://127.0.0.1:\(port)/healthz"])).status == 0)
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
#endif
