import Foundation

/// Runs the built `hlrender` binary (next to the test bundle) and captures what it says.
package struct CLIResult {
    /// The exit status, or the signal's number when `signalled`.
    package var status: Int32
    package var signalled: Bool
    package var stdout: [UInt8]
    package var stderr: String
}

package enum CLI {
    package static var binary: String {
        // The test script points here at the release build (the same sources, built the way
        // users get it): the CLI tests run hundreds of processes.
        if let folder = ProcessInfo.processInfo.environment["HLRENDER_BIN_DIR"], !folder.isEmpty {
            return folder + "/hlrender"
        }
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("hlrender").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return Fixtures.repo.appendingPathComponent(".build/debug/hlrender").path
    }

    @discardableResult
    /// Runs the CLI; with `timeout`, a process still running after that many seconds is sent
    /// SIGTERM (a service that started when it should have refused its options).
    package static func run(_ arguments: [String], stdin: [UInt8]? = nil, pinnedFonts: Bool = true,
                           environment: [String: String] = [:], directory: URL? = nil, timeout: Double? = nil) throws -> CLIResult {
        let environment = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let arguments = arguments + (pinnedFonts && arguments.first != "compare" ? ["--no-system-fonts"] : [])
        let child = try spawn(binary, arguments, environment: environment, directory: directory?.path, stdin: stdin ?? [], timeout: timeout)
        return CLIResult(status: child.status, signalled: child.signalled, stdout: child.stdout,
                         stderr: String(decoding: child.stderr, as: UTF8.self))
    }

    /// A fresh empty folder for one test's outputs.
    package static func scratchFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hlrender-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Text of a PDF as poppler's pdftotext reads it; the file must also pass `qpdf --check`.
package func pdfText(_ pdf: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hlrender-\(UUID().uuidString).pdf")
    try Data(pdf).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    if try !qpdfCheck(path.path) { throw TestFailure("qpdf --check fails on the PDF") }
    return String(decoding: try spawn("/usr/bin/pdftotext", [path.path, "-"]).stdout, as: UTF8.self)
}

/// Another program's exit status and standard output (poppler, qpdf, chromium).
package func runTool(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
    let child = try spawn(executable, arguments, environment: environment, captureStderr: false)
    return (child.status, String(decoding: child.stdout, as: UTF8.self))
}

/// A page in headless chromium, 1200x800, saved as a PNG screenshot (its HOME in `home`, so no
/// profile of the machine's is read). The exit status.
package func chromiumScreenshot(of page: String, to shot: String, home: String) throws -> Int32 {
    try runTool("/usr/bin/chromium", [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,800",
        "--screenshot=\(shot)", "file://" + page,
    ], environment: ["HOME": home, "PATH": "/usr/bin:/bin"]).status
}

/// `qpdf --check` on a PDF: true when qpdf finds no damage (exit 0; 3 is warnings only).
package func qpdfCheck(_ path: String) throws -> Bool {
    try runTool("/usr/bin/qpdf", ["--check", path]).status == 0
}
