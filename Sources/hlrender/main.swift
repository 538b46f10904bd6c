import ArgumentParser
import Glibc
import Support

// One entry point so that every failure, ArgumentParser's own included, becomes one line on
// stderr and a documented exit code, never a stack trace or a usage dump.
let arguments = Array(CommandLine.arguments.dropFirst())
TemporaryFiles.installSignalHandlers()
do {
    var command = try HLRender.parseCommand(arguments)
    try command.run()
} catch let exit as ExitCode {
    Glibc.exit(exit.rawValue)
} catch let failure as CLIFailure {
    fail(failure.message, code: failure.code)
} catch {
    if HLRender.exitCode(for: error) == .success {
        HLRender.exit(withError: error)  // --help, --version
    }
    fail(describe(error), code: ExitStatus.badInput)
}
