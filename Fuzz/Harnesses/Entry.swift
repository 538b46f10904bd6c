import FoundationEssentials
import Glibc
import Support

/// One line on standard error.
func complain(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

#if FUZZING
// libFuzzer's driver (SwiftPM names an executable's entry point itself, so libFuzzer's own
// main cannot be used): HLFUZZ_TARGET names the harness.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
               _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

nonisolated(unsafe) var chosen: Harness = .card

@main struct Fuzz {
    static func main() {
        let name = ProcessInfo.processInfo.environment["HLFUZZ_TARGET"] ?? ""
        guard let harness = Harness(rawValue: name) else {
            complain("set HLFUZZ_TARGET to one of: \(Harness.allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        chosen = harness
        Harness.warmUp()
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv) { data, size in
            chosen.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        })
    }
}
#else
/// Without libFuzzer: `hlfuzz HARNESS FILE_OR_FOLDER...` runs every input once (the seed
/// corpora and the regression inputs in CI, under the ordinary build).
@main struct Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let harness = Harness(rawValue: name) else {
            complain("usage: hlfuzz \(Harness.allCases.map(\.rawValue).joined(separator: "|")) FILE_OR_FOLDER...")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            let files = Posix.entries(of: path).map { $0.sorted().map { path + "/" + $0 } } ?? [path]
            for file in files {
                do {
                    harness.run(try Posix.readFile(file, as: "input", limit: 16 << 20))
                } catch {
                    complain("hlfuzz: \(error)")
                    exit(2)
                }
                count += 1
            }
        }
        print("hlfuzz \(name): \(count) inputs, no crash")
    }
}
#endif
