import Foundation
import TestSupport
import Testing

/// What a release is made of: one version (the binary, the CHANGELOG, the newest release tag),
/// the licence, and the tarball `make dist` builds, which runs from anywhere it is unpacked.
@Suite struct ReleaseTests {
    static func version() throws -> String {
        let result = try CLI.run(["--version"], pinnedFonts: false)
        let first = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("hlrender "), "\(first)")
        return String(first.dropFirst("hlrender ".count))
    }

    @Test func oneVersionEverywhere() throws {
        let version = try Self.version()
        let changelog = try String(contentsOf: Fixtures.repo.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // Changes not released yet sit under "## Unreleased", above the newest release.
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" }
        #expect(newest?.hasPrefix("## \(version) - ") == true, "CHANGELOG's newest entry is \(newest ?? "none"), the binary says \(version)")
        let license = try String(contentsOf: Fixtures.repo.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(license.contains("Apache License") && license.contains("Version 2.0, January 2004"))
        // The newest release tag this commit descends from is this version or an older one
        // (a tag that disagrees with the source would make a mislabelled release).
        let tag = try runTool("/usr/bin/git", ["-C", Fixtures.repo.path, "describe", "--tags", "--abbrev=0", "--match", "v*"])
        if tag.status == 0 {
            let tagged = tag.output.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst()
            let parts = { (text: Substring) in text.split(separator: ".").map { Int($0) ?? 0 } }
            #expect(parts(tagged).lexicographicallyPrecedes(parts(Substring(version))) || parts(tagged) == parts(Substring(version)),
                    "release tag v\(tagged) is newer than the source's \(version)")
        }
    }

    @Test func distTarballRunsFromAnywhere() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let made = try runTool("/bin/bash", [Fixtures.repo.appendingPathComponent("scripts/dist.sh").path],
                               environment: ["HLRENDER_BIN_DIR": bin, "DIST_DIR": dir.path, "PATH": "/usr/bin:/bin"])
        #expect(made.status == 0, "\(made.output)")
        let version = try Self.version()
        let arch = try runTool("/usr/bin/uname", ["-m"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = "hlrender-\(version)-linux-\(arch)"
        let tarball = dir.appendingPathComponent("\(name).tar.gz").path
        #expect(try runTool("/bin/tar", ["-xzf", tarball, "-C", dir.path]).status == 0)
        let root = dir.appendingPathComponent(name)
        for file in ["bin/hlrender", "bin/hlrender-serve", "share/man/man1/hlrender.1", "share/hlrender/fonts/NotoSans-Regular.ttf",
                     "share/doc/hlrender/LICENSE", "share/doc/hlrender/CHANGELOG.md", "RUNTIME-PACKAGES"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file) missing")
        }
        let runtime = try String(contentsOf: root.appendingPathComponent("RUNTIME-PACKAGES"), encoding: .utf8)
        for package in ["libc6", "libfreetype6", "libharfbuzz0b", "libpng16-16", "libavif15"] {
            #expect(runtime.contains(" \(package) ") || runtime.contains("\n\(package) "), "\(package) not in RUNTIME-PACKAGES:\n\(runtime)")
        }
        // Unpacked elsewhere, with no variable pointing at fonts: it finds its own.
        let render = try runTool(root.appendingPathComponent("bin/hlrender").path,
                                 ["render", "--text", "unpacked", "--no-system-fonts", "-o", dir.appendingPathComponent("u.png").path],
                                 environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path])
        #expect(render.status == 0, "\(render.output)")
    }
}
