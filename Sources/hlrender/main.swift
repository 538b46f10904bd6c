import Flags
import Glibc
import Host
import Support
import Worker

// One entry point so that every failure, the command line's own included, becomes one line on
// stderr and a documented exit code, never a stack trace or a usage dump.
let arguments = Array(CommandLine.arguments.dropFirst())
// A decoder worker the service spawned from this binary answers its call and exits here.
WorkerMain.runIfAsked(arguments)
TemporaryFiles.installSignalHandlers()
do {
    switch try HLRender.tree.parse(arguments, columns: terminalColumns()) {
    case let .run(command): try command.run()
    case let .print(text): print(text, terminator: "")
    }
} catch let exit as ExitCode {
    Glibc.exit(exit.rawValue)
} catch let failure as CLIFailure {
    fail(failure.message, code: failure.code)
} catch {
    fail(describe(error), code: ExitStatus.badInput)
}
