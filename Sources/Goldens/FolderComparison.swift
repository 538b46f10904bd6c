import Codecs
import Dispatch
import Glibc
import Compare
import Support

/// Two trees of images (PNG, JPEG, WebP) compared file by file, matched by relative path,
/// each pair through the one `Comparison` on all cores: screenshots from browser tests,
/// hlrender's own cards, anything a CI run writes.
package enum FolderComparison {
    /// What became of one relative path: the one vocabulary.
    package typealias Status = GoldenStatus

    package struct Entry: Sendable {
        package var path: String
        package var status: Status
        package var message: String
        package var outcome: Comparison.Outcome?
        package var tolerance: GoldenTolerance
        /// For the report, when asked: the difference panel (PNG) of a failing comparison.
        package var panel: [UInt8]?
        /// With the panel: the same, at most 240 pixels a side, for a pull-request summary.
        package var thumbnail: [UInt8]?
        package var milliseconds: Double = 0
    }

    package struct Settings: Sendable {
        package var config = GoldenConfig()
        /// Defaults, the config file's options and the flags, before any rule.
        package var base = GoldenTolerance()
        package var maxPixels = PixelLimit.defaultPixels
        package var maxFileBytes = 256 << 20
        /// Comparisons at once (a front end passes the machine's cores).
        package var jobs = 1
        /// Keep difference panels of failures for a report.
        package var panels = false
        package init() {}
    }

    /// The extensions compared (any case).
    package static let extensions: Set<String> = ["png", "jpg", "jpeg", "webp"]
    /// The most files a tree may hold, and how deep it may go (a link loop or a huge tree
    /// stops with an error, not a hang).
    package static let maxFiles = 1_000_000
    package static let maxDepth = 64

    /// The images under `root`, as relative paths in byte order. Links to files are followed;
    /// links to folders are not (a loop could never end).
    package static func images(under root: String) throws(FileError) -> [String] {
        var found: [String] = []
        func walk(_ folder: String, _ prefix: String, depth: Int) throws(FileError) {
            guard depth <= maxDepth else { throw FileError(.read, "folder", folder, .system("more than \(maxDepth) folders deep")) }
            var folders: [String] = []
            let readable = try Posix.eachEntry(of: folder) { (name: String, kind: Posix.Kind) throws(FileError) in
                let path = folder + "/" + name
                switch kind {
                case .folder where !isLink(path): folders.append(name)
                case .regular:
                    guard let dot = name.lastIndex(of: "."), extensions.contains(name[name.index(after: dot)...].lowercased()) else { return }
                    guard found.count < maxFiles else { throw FileError(.read, "folder", root, .system("more than \(maxFiles) images")) }
                    found.append(prefix + name)
                default: break
                }
            }
            guard readable else { throw FileError(.read, "folder", folder, .system(Posix.reason())) }
            for name in folders { try walk(folder + "/" + name, prefix + name + "/", depth: depth + 1) }
        }
        try walk(root, "", depth: 0)
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Compares every path found in either tree; `progress` is called after each file with
    /// (done, total), from worker threads, one call at a time.
    package static func run(expected: String, actual: String, settings: Settings,
                            progress: @Sendable (Int, Int) -> Void = { _, _ in }) throws(FileError) -> [Entry] {
        let expectedFiles = try images(under: expected), actualFiles = try images(under: actual)
        let paths = Array(Set(expectedFiles).union(actualFiles)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let inExpected = Set(expectedFiles), inActual = Set(actualFiles)
        let state = RunState(count: paths.count)
        // Decoded images and panels of all jobs together stay within one largest comparison's
        // worth (two images and a panel at the pixel limit); one over it runs alone.
        let budget = WaitingBudget(bytes: settings.maxPixels.multipliedReportingOverflow(by: 12).overflow ? Int.max : settings.maxPixels * 12)
        DispatchQueue.concurrentPerform(iterations: min(max(1, settings.jobs), max(1, paths.count))) { _ in
            while true {
                let index = state.take()
                guard index < paths.count else { return }
                let path = paths[index]
                let tolerance = settings.config.tolerance(for: path, base: settings.base)
                let started = DispatchTime.now().uptimeNanoseconds
                var entry: Entry
                if !inActual.contains(path) {
                    entry = Entry(path: path, status: .missing, message: "not in the actual folder", tolerance: tolerance)
                } else if !inExpected.contains(path) {
                    entry = Entry(path: path, status: .new, message: "not in the expected folder", tolerance: tolerance)
                } else {
                    entry = compare(expected + "/" + path, actual + "/" + path, path: path, tolerance: tolerance, settings: settings, budget: budget)
                }
                entry.milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                state.lock.withLock {
                    state.entries[index] = entry
                    state.done += 1
                    progress(state.done, paths.count)
                }
            }
        }
        return state.entries.compactMap { $0 }
    }

    /// The workers' shared state: the next index to take and the entries so far, under one lock.
    private final class RunState: @unchecked Sendable {
        let lock = Lock()
        var entries: [Entry?]
        var next = 0
        var done = 0
        init(count: Int) { entries = [Entry?](repeating: nil, count: count) }
        func take() -> Int { lock.withLock { defer { next += 1 }; return next } }
    }

    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func compare(_ expectedPath: String, _ actualPath: String, path: String, tolerance: GoldenTolerance,
                                settings: Settings, budget: WaitingBudget) -> Entry {
        var entry = Entry(path: path, status: .error, message: "", tolerance: tolerance)
        let expected: [UInt8], actual: [UInt8]
        do {
            expected = try Posix.readFile(expectedPath, as: "expected image", limit: settings.maxFileBytes)
            actual = try Posix.readFile(actualPath, as: "actual image", limit: settings.maxFileBytes)
        } catch {
            entry.message = "\(error)"
            return entry
        }
        // Both images decoded (each within the limit, or refused before decoding) and a panel
        // as large as the larger.
        let sizes = [expected, actual].map { min(ImageDecoder.pixelCount($0) ?? 0, settings.maxPixels) }
        let outcome: Comparison.Outcome
        do {
            outcome = try budget.with((sizes[0] + sizes[1] + sizes.max()!) * 4) { () throws(ComparisonError) -> Comparison.Outcome in
                try Comparison.compare(expected: expected, actual: actual, tolerance: tolerance, maxPixels: settings.maxPixels,
                                       panel: settings.panels ? .whenCompared : .none)
            }
        } catch {
            entry.message = "\(error.image.map { "\($0): " } ?? "")\(error)"
            return entry
        }
        entry.outcome = outcome
        entry.outcome?.expected = nil
        entry.outcome?.actual = nil
        entry.outcome?.panel = nil
        let result = outcome.result
        switch outcome.verdict {
        case .match:
            entry.status = outcome.sameBytes || result.identical ? .same : .within
            entry.message = outcome.sameBytes ? "identical" : entry.status == .same ? "same pixels" : "within: " + describe(outcome)
        case .sizeMismatch:
            entry.status = .changed
            entry.message = "size changed: \(outcome.expectedSize.width)x\(outcome.expectedSize.height) -> \(outcome.actualSize.width)x\(outcome.actualSize.height)"
        case .differ:
            entry.status = .changed
            entry.message = "\(outcome.kind?.description ?? "changed"): " + describe(outcome)
            if settings.panels, let panel = outcome.panel {
                entry.panel = try? PNGCodec.encode(panel)
                entry.thumbnail = try? PNGCodec.encode(FolderReport.thumbnail(panel))
            }
        }
        return entry
    }

    /// "1,234 pixels differ (0.06%)", with the SSIM score when that metric decided.
    package static func describe(_ outcome: Comparison.Outcome) -> String {
        let result = outcome.result
        var text = "\(result.differentPixels) pixels differ (\((result.ratio * 10_000).rounded() / 100)%)"
        if result.antialiasedPixels > 0 { text += ", \(result.antialiasedPixels) anti-aliased not counted" }
        if let ssim = result.ssim { text += ", SSIM \((ssim * 1_000_000).rounded() / 1_000_000)" }
        return text
    }
}
