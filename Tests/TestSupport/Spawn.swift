import Glibc
import Support

/// A child process run to its end, its standard input given and its output captured: the
/// tests' way to run programs (not Foundation's `Process`, see `ChildProcess`).
package struct Spawned {
    /// The exit status, or the signal's number when `signalled`.
    package var status: Int32
    package var signalled: Bool
    package var stdout: [UInt8]
    package var stderr: [UInt8]
}

package struct SpawnFailure: Error, CustomStringConvertible {
    package let description: String
}

/// Runs `executable` with `arguments` (the product's `ChildProcess`); `environment` replaces
/// the whole environment when given, `directory` is its working folder, `stdin` its whole
/// standard input (then end of file). After `timeout` seconds a child still running is sent
/// SIGTERM. `captureStderr`: false sends it to /dev/null.
package func spawn(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                   directory: String? = nil, stdin: [UInt8] = [], timeout: Double? = nil,
                   captureStderr: Bool = true) throws -> Spawned {
    do {
        let child = try ChildProcess.run(executable, arguments, environment: environment, directory: directory, stdin: stdin,
                                         stop: ChildProcess.Stop(seconds: timeout, signal: SIGTERM), captureStderr: captureStderr)
        return Spawned(status: child.status, signalled: child.signalled, stdout: child.stdout, stderr: child.stderr)
    } catch {
        throw SpawnFailure(description: error.description)
    }
}
