import FoundationEssentials
import Typeset

/// Where the pinned fonts live: HLRENDER_FONT_DIR, else the repository's fonts/ (found from
/// this source file when run from a checkout, or next to the binary when installed).
enum FontSetup {
    static func defaultDirectories() -> [String] {
        if let env = ProcessInfo.processInfo.environment["HLRENDER_FONT_DIR"], !env.isEmpty {
            return env.split(separator: ":").map(String.init)
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fonts").path
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("../share/hlrender/fonts").standardized.path
        return [source, executable].filter { FileManager.default.fileExists(atPath: $0) }.prefix(1).map { $0 }
    }

    static func library(extraDirectories: [String], systemFonts: Bool) throws -> FontLibrary {
        for folder in extraDirectories where !FileManager.default.fileExists(atPath: folder) {
            throw CLIFailure(message: "font folder '\(folder)' does not exist")
        }
        return try FontLibrary(directories: extraDirectories + defaultDirectories(), includeSystemFonts: systemFonts)
    }
}
