import FoundationEssentials

/// Where the pinned fonts live: HLRENDER_FONT_DIR, else the repository's fonts/ (found from
/// this source file when run from a checkout), else next to the binary when installed.
public enum PinnedFonts {
    public static func directories() -> [String] {
        if let env = ProcessInfo.processInfo.environment["HLRENDER_FONT_DIR"], !env.isEmpty {
            return env.split(separator: ":").map(String.init)
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fonts").path
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("../share/hlrender/fonts").standardized.path
        return [source, executable].filter { FileManager.default.fileExists(atPath: $0) }.prefix(1).map { $0 }
    }
}
