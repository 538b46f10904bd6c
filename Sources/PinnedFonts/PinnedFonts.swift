import Glibc

/// Where hlrender's pinned fonts are for a program that links the library: SwiftPM copies the
/// package's `fonts/` folder into the resource bundle `hlrender_PinnedFonts.resources`, beside
/// the program it builds. Found from the running program's own path, not through the bundle
/// accessor SwiftPM generates, which ends the process when the bundle is missing.
package enum PinnedFonts {
    /// The bundle's name: the package's name, then the target's.
    package static let bundleName = "hlrender_PinnedFonts.resources"

    /// Why the pinned fonts cannot be found.
    package struct Missing: Error, CustomStringConvertible, Sendable {
        /// One line naming where they were looked for.
        package let description: String
    }

    /// The folder holding the pinned fonts, beside the running program.
    package static func folder() throws(Missing) -> String {
        guard let program = runningProgram() else {
            throw Missing(description: "pinned fonts: cannot tell where this program is (/proc/self/exe)")
        }
        let beside = String(program[..<(program.lastIndex(of: "/") ?? program.startIndex)])
        let folder = beside + "/" + bundleName + "/fonts"
        var facts = stat()
        guard stat(folder + "/NotoSans-Regular.ttf", &facts) == 0 else {
            throw Missing(description: "pinned fonts: \(bundleName) is not beside \(program); ship that folder from the build folder with the program, or name font folders")
        }
        return folder
    }

    private static func runningProgram() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
