import Foundation
import TestSupport
import Testing

/// The completion scripts and the man page come from the flag declarations: every command's
/// flags complete, the scripts parse in their shells and the page formats without a warning.
@Suite struct CompletionsTests {
    func generated(_ arguments: [String]) throws -> String {
        let result = try CLI.run(arguments, pinnedFonts: false)
        #expect(result.status == 0, "\(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// Runs bash's completion function on a command line (the last word is completed).
    func bashCompletes(_ script: String, _ words: [String]) throws -> [String] {
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hlrender.bash")
        try Data(script.utf8).write(to: file)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let probe = "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _hlrender; printf '%s\\n' \"${COMPREPLY[@]}\""
        return try runTool("/bin/bash", ["-c", probe]).output.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesEachCommandsFlags() throws {
        let script = try generated(["completions", "bash"])
        #expect(try runTool("/bin/bash", ["-n", "-c", script]).status == 0)
        #expect(try bashCompletes(script, ["hlrender", "--highl"]) == ["--highlight", "--highlight-style"])
        #expect(try bashCompletes(script, ["hlrender", "batch", "--expect-d"]) == ["--expect-dir"])
        #expect(try bashCompletes(script, ["hlrender", "serve", "--memory"]) == ["--memory-mb"])
        #expect(try bashCompletes(script, ["hlrender", "comp"]).contains("compare"))
        #expect(try bashCompletes(script, ["hlrender", "comp"]).contains("completions"))
    }

    @Test(arguments: ["zsh", "fish"])
    func theOtherShellsParseTheirScript(shell: String) throws {
        let script = try generated(["completions", shell])
        let path = "/usr/bin/\(shell)"
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(shell) is installed by the set-up")
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("script")
        try Data(script.utf8).write(to: file)
        #expect(try runTool(path, ["-n", file.path]).status == 0)
        let dashes = shell == "fish" ? "-l " : "--"
        #expect(["expect-dir", "memory-mb", "highlight"].allSatisfy { script.contains(dashes + $0) }, "\(script.prefix(400))")
        if shell == "fish" {
            let completed = try runTool(path, ["-c", "source '\(file.path)'; complete -C 'hlrender card --sch'"]).output
            #expect(completed.hasPrefix("--schema"), "\(completed)")
        }
    }

    @Test func aShellThatIsNotKnownIsRefused() throws {
        let result = try CLI.run(["completions", "tcsh"], pinnedFonts: false)
        #expect(result.status == 3 && result.stderr.contains("'tcsh' is not bash, zsh or fish"), "\(result.stderr)")
    }

    @Test func theManPageFormatsCleanlyAndListsEveryCommand() throws {
        let page = try generated(["options", "--man"])
        let folder = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hlrender.1")
        try Data(page.utf8).write(to: file)
        // UTF-8 output, and ASCII as man gives it in a C locale (it warned of \\[u2026] there).
        for device in ["-Tutf8", "-Tascii"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
            process.arguments = ["-man", device, "-ww", "-z", file.path]
            process.environment = ["LC_ALL": "C", "PATH": "/usr/bin:/bin"]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(device): \(warnings)")
        }
        for command in ["render", "steps", "card", "batch", "compare", "serve", "options", "completions"] {
            #expect(page.contains(".SS \"hlrender \(command)\""), "\(command)")
        }
        #expect(page.contains("\\fB\\-\\-expect\\-dir\\fR") && page.contains("HLRENDER_FONT_DIR"))
    }
}
