import Glibc

/// A child process run to its end with posix_spawn: its standard input given whole, its
/// outputs captured up to a limit each, stopped by a signal at a deadline or when a
/// cancellation is set. Not Foundation's `Process`: in Swift 6.3.1 its `run()` reads past a
/// readdir buffer while it lists /proc/self/fd (swift-corelibs-foundation#5472).
package enum ChildProcess {
    /// How the child ended, and what it wrote.
    package struct Result: Sendable {
        /// The exit status, or the signal's number when `signalled`.
        package var status: Int32
        package var signalled: Bool
        package var stdout: [UInt8]
        package var stderr: [UInt8]
        /// The parent stopped it: its deadline passed or it was cancelled.
        package var stopped = false
        /// An output went past its limit, and the child was stopped for it.
        package var overflowed = false
    }

    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// What ends the child and when.
    package struct Stop: Sendable {
        /// Seconds from the start; nil: no deadline.
        package var seconds: Double?
        package var cancellation: Cancellation?
        /// SIGTERM lets a program clean up; SIGKILL ends one that may not cooperate.
        package var signal: Int32 = SIGKILL
        package init(seconds: Double? = nil, cancellation: Cancellation? = nil, signal: Int32 = SIGKILL) {
            (self.seconds, self.cancellation, self.signal) = (seconds, cancellation, signal)
        }
    }

    /// Runs `executable` with `arguments`; `environment` replaces the whole environment when
    /// given (else the parent's), `directory` is its working folder. `captureStderr`: false
    /// sends it to /dev/null. An output past `outputLimit` bytes stops the child. `expectedOutput`:
    /// the size the answer will have, when known, held at once (a growing buffer would hold up to
    /// twice a large answer while it moves).
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                            directory: String? = nil, stdin: [UInt8] = [], stop: Stop = Stop(),
                            captureStderr: Bool = true, outputLimit: Int = Int.max, expectedOutput: Int = 0) throws(Failure) -> Result {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        // pipe2 is not imported; a child spawned by another thread between pipe and fcntl
        // closes what it inherited (closefrom below).
        let input = try inputPair()
        for i in 0..<2 {
            guard (i == 0 ? pipe(&output) : pipe(&errors)) == 0 else {
                [input.parent, input.child, output[0], output[1]].filter { $0 >= 0 }.forEach { close($0) }
                throw Failure(description: "pipe: \(Posix.reason())")
            }
        }
        for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.child, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        if captureStderr {
            posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Descriptors other code opened without O_CLOEXEC stay out of the child.
        _ = SpawnActions.closeFrom?(&actions, 3)
        if let directory {
            guard let chdir = SpawnActions.chdir else { throw Failure(description: "posix_spawn cannot change folders here") }
            _ = chdir(&actions, directory)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentLines = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let envp = environmentLines.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = envp.map { posix_spawn(&pid, executable, &actions, nil, argv, $0) } ?? posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(input.child); close(output[1]); close(errors[1])
        guard spawned == 0 else {
            close(input.parent); close(output[0]); close(errors[0])
            throw Failure(description: "\(executable): \(String(cString: strerror(spawned)))")
        }
        var result = Result(status: 0, signalled: false, stdout: [], stderr: [])
        result.stdout.reserveCapacity(min(max(0, expectedOutput), outputLimit))
        pump(stdin, into: input.parent, from: output[0], errors[0], pid: pid, stop: stop, limit: outputLimit, result: &result)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import.
        let signal = status & 0x7F
        (result.status, result.signalled) = signal != 0 ? (signal, true) : ((status >> 8) & 0xFF, false)
        return result
    }

    /// Writes `stdin` and reads both outputs at once until both end (a child filling one pipe
    /// while the parent waits on the other would never finish), then closes the three. Every
    /// 50 ms it looks at the deadline and the cancellation.
    private static func pump(_ stdin: [UInt8], into input: Int32, from output: Int32, _ errors: Int32, pid: pid_t,
                             stop: Stop, limit: Int, result: inout Result) {
        var written = 0
        var inputOpen = true
        if stdin.isEmpty { close(input); inputOpen = false } else { _ = fcntl(input, F_SETFL, O_NONBLOCK) }
        var open: [Int32] = [output, errors]
        let deadline = stop.seconds.map { monotonicSeconds() + $0 }
        let watched = deadline != nil || stop.cancellation != nil
        var signalled = false
        func end(_ overflow: Bool) {
            guard !signalled else { return }
            kill(pid, stop.signal)
            signalled = true
            if overflow { result.overflowed = true } else { result.stopped = true }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty || inputOpen {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputOpen { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), watched && !signalled ? 50 : -1)
            if ready < 0 && errno == EINTR { continue }
            if !signalled, deadline.map({ monotonicSeconds() >= $0 }) ?? false || stop.cancellation?.isCancelled == true { end(false) }
            for entry in fds where entry.revents != 0 {
                if entry.fd == input {
                    let n = stdin.withUnsafeBytes { send(input, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL)) }
                    if n > 0 { written += n }
                    if n < 0 && errno != EAGAIN && errno != EINTR || written == stdin.count {
                        close(input)
                        inputOpen = false
                    }
                    continue
                }
                let n = read(entry.fd, &buffer, buffer.count)
                if n > 0 {
                    if entry.fd == output { result.stdout += buffer[..<n] } else { result.stderr += buffer[..<n] }
                    if result.stdout.count > limit || result.stderr.count > limit {
                        end(true)
                        result.stdout.removeAll()
                    }
                } else if n == 0 || errno != EINTR && errno != EAGAIN {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
    }

    /// A child's standard input: a socket pair, not a pipe, so that writing to a child that has
    /// died (a decoder that crashed) fails with EPIPE under MSG_NOSIGNAL instead of killing this
    /// process with SIGPIPE. Both ends are made close-on-exec at once (no other thread's child
    /// inherits them); the child gets its end by dup2.
    package static func inputPair() throws(Failure) -> (parent: Int32, child: Int32) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw Failure(description: "socketpair: \(Posix.reason())")
        }
        return (pair[0], pair[1])
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// glibc's posix_spawn extensions (2.29 and 2.34) that Swift's Glibc module does not declare.
enum SpawnActions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeFolder = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    static let chdir: ChangeFolder? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeFolder.self) }
}
