import Foundation
import TestSupport
import Testing

/// The README's commands, run as written (from a folder holding the repository's shipped
/// inputs, with the built binaries on PATH), so the README cannot rot: each must exit 0 and
/// write the file it names. Left out, and said why: `make` targets (the suite itself runs under
/// `make test`), the service (`hlrender serve` and its curl; the service tests cover it) and
/// `swift test`.
@Suite struct ReadmeCommandsTests {
    /// Every command line of the README's `sh` blocks, continuation lines joined, in order.
    static func commands() throws -> [String] {
        let readme = try String(contentsOf: Fixtures.repo.appendingPathComponent("README.md"), encoding: .utf8)
        var commands: [String] = []
        var inBlock = false, pending = ""
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inBlock = line == "```sh"
                continue
            }
            guard inBlock else { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
                continue
            }
            let command = (pending + line).trimmingCharacters(in: .whitespaces)
            pending = ""
            if !command.isEmpty, !command.hasPrefix("#") { commands.append(command) }
        }
        return commands
    }

    static func isLeftOut(_ command: String) -> Bool {
        command.hasPrefix("make ") || command.hasPrefix("curl ") || command.hasPrefix("HLRENDER_RECORD=")
            || command.contains("hlrender serve") || command.hasPrefix("swift ")
    }

    @Test func everyReadmeCommandRunsAsWritten() throws {
        let all = try Self.commands()
        let runnable = all.filter { !Self.isLeftOut($0) }
        // The README has examples for every front end: a parse that found few is broken.
        #expect(runnable.count >= 15, "\(runnable)")
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for folder in ["samples", "examples", "bench", "fonts"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(folder),
                                                       withDestinationURL: Fixtures.repo.appendingPathComponent(folder))
        }
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        for command in runnable {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-o", "pipefail", "-c", command]
            process.currentDirectoryURL = dir
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let err = Pipe(), out = Pipe()
            process.standardError = err
            process.standardOutput = out
            try process.run()
            _ = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(command)\n\(stderr)")
            // The file it names is there and not empty.
            let words = command.split(separator: " ").map(String.init)
            for (i, word) in words.enumerated() where word == "-o" && i + 1 < words.count && words[i + 1] != "-" {
                let size = (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(words[i + 1]).path)[.size] as? Int) ?? 0
                #expect(size > 0, "\(command): \(words[i + 1]) was not written")
            }
        }
    }

    /// Every command's `--help` EXAMPLES, run as written in that order (batch's goldens and
    /// outputs feed compare's), from a folder holding the repository's samples: each exits 0
    /// (compare 0 or 1: differing folders are an answer, not a failure).
    @Test func everyHelpExampleRuns() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for folder in ["samples", "examples"] {
            try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent(folder),
                                                       withDestinationURL: Fixtures.repo.appendingPathComponent(folder))
        }
        #expect(try CLI.run(["render", "--text", "golden", "-o", dir.appendingPathComponent("golden.png").path]).status == 0)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("golden.png"), to: dir.appendingPathComponent("actual.png"))
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        var examples = 0
        for command in ["render", "card", "steps", "fonts", "batch", "compare"] {
            let help = String(decoding: try CLI.run([command, "--help"]).stdout, as: UTF8.self)
            let lines = help.components(separatedBy: "\nEXAMPLES:\n").dropFirst().first?.split(separator: "\n") ?? []
            #expect(!lines.isEmpty, "\(command) --help has no EXAMPLES")
            for line in lines where line.hasPrefix("  $ ") {
                examples += 1
                let result = try runTool("/bin/bash", ["-c", "cd '\(dir.path)' && PATH='\(bin)':$PATH " + line.dropFirst(4)])
                #expect(command == "compare" ? [0, 1].contains(result.status) : result.status == 0, "\(line): exit \(result.status)")
            }
        }
        #expect(examples >= 12)
    }
}
