import Glibc

/// A child process fed on its standard input piece by piece (an encoder given frames as they
/// are drawn, so they are never all held), its standard output discarded and its errors kept
/// in a file. The input is a socket, written with MSG_NOSIGNAL: a child that exits early makes
/// a write fail with an error instead of killing this process with SIGPIPE.
package final class StreamingChild {
    private let pid: pid_t
    private var input: Int32
    private let errorFile: String

    /// Starts `executable` with `arguments`; its standard error goes to `errorFile`.
    package init(_ executable: String, _ arguments: [String], errorFile: String) throws(ChildProcess.Failure) {
        let pair = try ChildProcess.inputPair()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair.child, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = SpawnActions.closeFrom?(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(pair.child)
        guard spawned == 0 else {
            close(pair.parent)
            throw ChildProcess.Failure(description: "\(executable): \(String(cString: strerror(spawned)))")
        }
        (pid, input, self.errorFile) = (child, pair.parent, errorFile)
    }

    /// Writes all of `count` bytes at `bytes`; false when the child stopped reading.
    package func write(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = send(input, bytes + done, count - done, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Ends the input and waits for the child: its exit status (or 128 + the signal), and the
    /// last line it wrote to standard error.
    package func finish() -> (status: Int32, lastError: String) {
        if input >= 0 { close(input); input = -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        let code = signal != 0 ? 128 + signal : (status >> 8) & 0xFF
        let text = (try? Posix.readFile(errorFile, as: "the encoder's messages", limit: 1 << 16)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let last = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return (code, last)
    }

    deinit {
        if input >= 0 {
            close(input)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}
