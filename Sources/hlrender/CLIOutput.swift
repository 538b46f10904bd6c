import Host
import Support

/// The CLI's outputs: `OutputFile`'s atomic writes with the CLI's one test hook
/// (`HLRENDER_TEST_WRITE_PAUSE_MS`, read once), a value handed down rather than a setting the
/// library keeps.
enum CLIOutput {
    /// Milliseconds each finished output waits before it is renamed into place (0 outside tests).
    static let pauseBeforeRename = Host.writePauseMilliseconds()

    /// `OutputFile.write` with the hook.
    static func write(_ bytes: [UInt8], to path: String, confinedTo root: String? = nil) throws(FileError) {
        try OutputFile.write(bytes, to: path, confinedTo: root, pauseBeforeRename: pauseBeforeRename)
    }

    /// `OutputFile.stream` with the hook.
    static func stream(to path: String, _ produce: (_ put: @escaping (UnsafeRawBufferPointer) -> Bool) throws -> Void) throws {
        try OutputFile.stream(to: path, pauseBeforeRename: pauseBeforeRename, produce)
    }
}
