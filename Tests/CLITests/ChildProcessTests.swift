import Glibc
import Support
import Testing

/// The child runner, seen from the parent: a child that dies while it is being fed.
@Suite struct ChildProcessTests {
    /// A child that exits without reading its input (as a decoder that crashes does) leaves the
    /// parent running: the write fails instead of raising SIGPIPE, which would end this test
    /// process (and did end `batch` in CI, exit by signal 13).
    @Test func aChildThatStopsReadingDoesNotKillTheParent() throws {
        let input = [UInt8](repeating: 0x41, count: 16 << 20)
        let result = try ChildProcess.run("/bin/sh", ["-c", "exit 7"], stdin: input)
        #expect(result.status == 7 && !result.signalled)
    }

    /// What a child reads is what it was given, through the socket that replaced the pipe.
    @Test func aChildReadsAllOfItsInput() throws {
        let input = [UInt8]((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let result = try ChildProcess.run("/usr/bin/wc", ["-c"], stdin: input)
        #expect(String(decoding: result.stdout, as: UTF8.self).filter(\.isNumber) == "300000")
    }
}
