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
        let tarball = dir.appendingPathComponent("\(name).tar.xz").path
        #expect(try runTool("/bin/tar", ["-xJf", tarball, "-C", dir.path]).status == 0)
        // Small enough to download on every CI run (issue 53: at most 30 MB), with the two
        // binaries stripped.
        let size = (try FileManager.default.attributesOfItem(atPath: tarball)[.size] as? Int) ?? .max
        #expect(size <= 30_000_000, "the tarball is \(size) bytes")
        for binary in ["bin/hlrender", "bin/hlrender-serve"] {
            let sections = try runTool("/usr/bin/objdump", ["-h", dir.appendingPathComponent("\(name)/\(binary)").path]).output
            #expect(!sections.contains(".debug_info") && !sections.contains(".symtab"), "\(binary) is not stripped")
        }
        let root = dir.appendingPathComponent(name)
        for file in ["bin/hlrender", "bin/hlrender-serve", "share/man/man1/hlrender.1", "share/hlrender/fonts/NotoSans-Regular.ttf",
                     "share/doc/hlrender/LICENSE", "share/doc/hlrender/CHANGELOG.md", "RUNTIME-PACKAGES"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file) missing")
        }
        let runtime = try String(contentsOf: root.appendingPathComponent("RUNTIME-PACKAGES"), encoding: .utf8)
        // The emoji font is Debian's file, byte for byte: a link to it, its package needed.
        let emoji = root.appendingPathComponent("share/hlrender/fonts/NotoColorEmoji.ttf").path
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: emoji)) == "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
        // (Read through the link: FileManager's contentsEqual compares a link's destination.)
        #expect(try Data(contentsOf: URL(fileURLWithPath: emoji)) == Data(contentsOf: Fixtures.repo.appendingPathComponent("fonts/NotoColorEmoji.ttf")))
        for package in ["libc6", "libfreetype6", "libharfbuzz0b", "libpng16-16", "libavif15", "fonts-noto-color-emoji"] {
            #expect(runtime.contains(" \(package) ") || runtime.contains("\n\(package) "), "\(package) not in RUNTIME-PACKAGES:\n\(runtime)")
        }
        // Unpacked elsewhere, with no variable pointing at fonts: it finds its own.
        let render = try runTool(root.appendingPathComponent("bin/hlrender").path,
                                 ["render", "--text", "unpacked", "--no-system-fonts", "-o", dir.appendingPathComponent("u.png").path],
                                 environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path])
        #expect(render.status == 0, "\(render.output)")
    }

    /// A pinned font that links to nothing (the release's emoji font without Debian's
    /// fonts-noto-color-emoji) is named in one warning; the render goes on.
    @Test func aDanglingFontLinkIsNamed() throws {
        let dir = try CLI.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fonts = dir.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        for name in ["NotoSans-Regular.ttf", "NotoSans-Bold.ttf"] {
            try FileManager.default.createSymbolicLink(atPath: fonts.appendingPathComponent(name).path,
                                                       withDestinationPath: Fixtures.repo.appendingPathComponent("fonts/\(name)").path)
        }
        try FileManager.default.createSymbolicLink(atPath: fonts.appendingPathComponent("NotoColorEmoji.ttf").path,
                                                   withDestinationPath: "/nonexistent/NotoColorEmoji.ttf")
        let run = try CLI.run(["render", "--text", "Hi 👋", "--no-system-fonts", "-o", dir.appendingPathComponent("a.png").path],
                              environment: ["HLRENDER_FONT_DIR": fonts.path])
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("links to '/nonexistent/NotoColorEmoji.ttf', which is not there") }
        #expect(warnings.count == 1 && warnings[0].contains(fonts.appendingPathComponent("NotoColorEmoji.ttf").path), "\(run.stderr)")
    }
}
