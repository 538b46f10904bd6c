import Glibc

/// A child process run to its end with posix_spawn, its standard input given and its output
/// captured: the tests' way to run programs. Not Foundation's `Process`: in Swift 6.3.1 its
/// `run()` reads past a readdir buffer while it lists /proc/self/fd
/// (swift-corelibs-foundation#5472) and crashed the test process now and then once the suite
/// held a few thousand descriptors.
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

/// Runs `executable` with `arguments`; `environment` replaces the whole environment when given,
/// `directory` is its working folder, `stdin` its whole standard input (then end of file).
/// After `timeout` seconds a child still running is sent SIGTERM. `captureStderr`: false sends
/// it to /dev/null.
package func spawn(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                   directory: String? = nil, stdin: [UInt8] = [], timeout: Double? = nil,
                   captureStderr: Bool = true) throws -> Spawned {
    var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
    // pipe2 is not imported; a child spawned by another thread between pipe and fcntl closes
    // what it inherited (closefrom below; Foundation's Process closes everything too).
    for i in 0..<3 {
        let made = i == 0 ? pipe(&input) : i == 1 ? pipe(&output) : pipe(&errors)
        guard made == 0 else { throw SpawnFailure(description: "pipe: \(String(cString: strerror(errno)))") }
    }
    for fd in input + output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    if captureStderr {
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    } else {
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    // Descriptors other code opened without O_CLOEXEC stay out of the child (another test's
    // pipe held open by a child would delay its end of file).
    SpawnActions.closeFrom?(&actions, 3)
    if let directory {
        guard let chdir = SpawnActions.chdir else { throw SpawnFailure(description: "posix_spawn cannot change folders here") }
        chdir(&actions, directory)
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let environmentLines = environment.map { $0.map { "\($0.key)=\($0.value)" } }
    let envp = environmentLines.map { $0.map { strdup($0) } + [nil] }
    defer { envp?.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = envp.map { posix_spawn(&pid, executable, &actions, nil, argv, $0) } ?? posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(input[0]); close(output[1]); close(errors[1])
    guard spawned == 0 else {
        close(input[1]); close(output[0]); close(errors[0])
        throw SpawnFailure(description: "\(executable): \(String(cString: strerror(spawned)))")
    }
    var out: [UInt8] = [], err: [UInt8] = []
    pump(stdin: stdin, into: input[1], from: output[0], errors[0], out: &out, err: &err, pid: pid, timeout: timeout)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import.
    let signal = status & 0x7F
    return signal != 0 ? Spawned(status: signal, signalled: true, stdout: out, stderr: err)
                       : Spawned(status: (status >> 8) & 0xFF, signalled: false, stdout: out, stderr: err)
}

/// Writes `stdin` and reads both outputs at once until both end (a child filling one pipe while
/// the test waits on the other would never finish), then closes the three.
private func pump(stdin: [UInt8], into input: Int32, from output: Int32, _ errors: Int32,
                  out: inout [UInt8], err: inout [UInt8], pid: pid_t, timeout: Double?) {
    var written = 0
    var inputOpen = true
    if stdin.isEmpty { close(input); inputOpen = false } else { _ = fcntl(input, F_SETFL, O_NONBLOCK) }
    var open: [Int32] = [output, errors]
    let deadline = timeout.map { monotonicSeconds() + $0 }
    var terminated = false
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !open.isEmpty || inputOpen {
        var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if inputOpen { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
        var wait: Int32 = -1
        if let deadline, !terminated { wait = Int32(max(0, min(1000, (deadline - monotonicSeconds()) * 1000))) }
        let ready = poll(&fds, nfds_t(fds.count), wait)
        if ready < 0 && errno == EINTR { continue }
        if ready == 0, let deadline, !terminated, monotonicSeconds() >= deadline {
            kill(pid, SIGTERM)
            terminated = true
            continue
        }
        for entry in fds where entry.revents != 0 {
            if entry.fd == input {
                let n = stdin.withUnsafeBytes { write(input, $0.baseAddress! + written, $0.count - written) }
                if n > 0 { written += n }
                if n < 0 && errno != EAGAIN && errno != EINTR || written == stdin.count {
                    close(input)
                    inputOpen = false
                }
                continue
            }
            let n = read(entry.fd, &buffer, buffer.count)
            if n > 0 {
                if entry.fd == output { out += buffer[..<n] } else { err += buffer[..<n] }
            } else if n == 0 || errno != EINTR && errno != EAGAIN {
                close(entry.fd)
                open.removeAll { $0 == entry.fd }
            }
        }
    }
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// glibc's posix_spawn extensions (2.29 and 2.34) that Swift's Glibc module does not declare.
private enum SpawnActions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeFolder = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    static let chdir: ChangeFolder? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeFolder.self) }
}
