import Support

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
        guard let program = Posix.executablePath() else {
            throw Missing(description: "pinned fonts: cannot tell where this program is (/proc/self/exe)")
        }
        let folder = OutputFile.split(program).0 + "/" + bundleName + "/fonts"
        guard Posix.kind(folder + "/NotoSans-Regular.ttf") == .regular else {
            throw Missing(description: "pinned fonts: \(bundleName) is not beside \(program); ship that folder from the build folder with the program, or name font folders")
        }
        return folder
    }
}
