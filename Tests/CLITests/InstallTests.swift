import Foundation
import TestSupport
import Testing

/// An installed hlrender (scripts/install.sh, what `make install PREFIX=...` runs) with the
/// checkout out of its reach: it finds its fonts beside its real executable, passes a golden
/// suite recorded by the build in the checkout, and names where it looked when they are gone.
@Suite struct InstallTests {
    let prefix: URL
    let work: URL

    init() throws {
        let dir = try CLI.scratchFolder()
        prefix = dir.appendingPathComponent("prefix")
        work = dir.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let script = Fixtures.repo.appendingPathComponent("scripts/install.sh").path
        let installed = try runTool("/bin/bash", [script, prefix.path], environment: ["HLRENDER_BIN_DIR": bin, "PATH": "/usr/bin:/bin"])
        #expect(installed.status == 0, "\(installed.output)")
    }

    /// Without SERVICE=1 the service is not installed, and `hlrender serve` says how to get it.
    @Test func theServiceIsInstalledOnlyWhenAsked() throws {
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin/hlrender-serve").path))
        let serve = try installed(["serve", "--templates", work.path])
        #expect(serve.status != 0 && serve.stderr.contains("hlrender-serve") && serve.stderr.contains("is not there"), "\(serve.stderr)")
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let withService = prefix.deletingLastPathComponent().appendingPathComponent("with-service").path
        let script = Fixtures.repo.appendingPathComponent("scripts/install.sh").path
        let result = try runTool("/bin/bash", [script, withService],
                                 environment: ["HLRENDER_BIN_DIR": bin, "PATH": "/usr/bin:/bin", "SERVICE": "1"])
        #expect(result.status == 0 && result.output.contains("hlrender hlrender-serve"), "\(result.output)")
        #expect(FileManager.default.isExecutableFile(atPath: withService + "/bin/hlrender-serve"))
    }

    /// Runs the installed binary from `work`, with no font variable set.
    func installed(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = prefix.appendingPathComponent("bin/hlrender")
        process.arguments = arguments
        process.currentDirectoryURL = work
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": work.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func findsItsFontsAndPassesAGoldenSuite() throws {
        for file in ["share/man/man1/hlrender.1", "share/bash-completion/completions/hlrender", "share/zsh/site-functions/_hlrender",
                     "share/fish/vendor_completions.d/hlrender.fish"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: prefix.appendingPathComponent(file).path)[.size] as? Int) ?? 0
            #expect(size > 1000, "\(file): \(size) bytes")
        }
        let rendered = try installed(["render", "--text", "hi", "--no-system-fonts", "-o", "hi.png"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("hi.png").path))

        // Recorded by the checkout's build, checked by the installed copy.
        let samples = Fixtures.repo.appendingPathComponent("samples/batch")
        let suite = ["batch", "--template", samples.appendingPathComponent("card.json").path,
                     "--data", samples.appendingPathComponent("rows.csv").path, "--output", "{{id}}.png",
                     "--out-dir", work.appendingPathComponent("out").path,
                     "--expect-dir", work.appendingPathComponent("goldens").path, "--quiet"]
        let recorded = try CLI.run(suite + ["--update", "changed"], pinnedFonts: false)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let checked = try installed(suite)
        #expect(checked.status == 0 && checked.stderr.contains("goldens: ") && !checked.stderr.contains("changed"), "\(checked.stderr)")
    }

    @Test func namesWhereItLookedWhenTheFontsAreGone() throws {
        let fonts = prefix.appendingPathComponent("share/hlrender/fonts")
        try FileManager.default.removeItem(at: fonts)
        let result = try installed(["render", "--text", "hi", "--no-system-fonts", "-o", "hi.png"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("no pinned fonts found") && result.stderr.contains(fonts.path), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("hi.png").path))
    }

    /// Issue 53: with the fonts folder there but empty, the error was "unknown font family
    /// 'Noto Sans'"; it names the folder now.
    @Test func namesAnEmptyFontsFolder() throws {
        let fonts = prefix.appendingPathComponent("share/hlrender/fonts")
        for name in try FileManager.default.contentsOfDirectory(atPath: fonts.path) {
            try FileManager.default.removeItem(at: fonts.appendingPathComponent(name))
        }
        let result = try installed(["render", "--text", "hi", "--no-system-fonts", "-o", "hi.png"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("\(fonts.path) (") && result.stderr.contains("holds no font files"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
