import Support

/// Which baselines a run may rewrite. A file that matches (byte-identical, the same pixels, or
/// within the limits) is never touched by either, so a scheduled job cannot churn baselines
/// that did not really change; a baseline with no actual file is never deleted.
package enum BaselineUpdate: String, CaseIterable, Sendable {
    /// Rewrite the failing files and add the new ones.
    case changed
    /// Add the new ones only (the files with no baseline yet).
    case missing
    /// Whatever does not pass: the same as `changed` (Playwright's and jest's `-u`), what
    /// `--update` alone means.
    case all

    /// Whether a file of this status is written.
    package func writes(_ status: FolderComparison.Status) -> Bool {
        switch self {
        case .changed, .all: status == .changed || status == .new
        case .missing: status == .new
        }
    }
}

/// Writing baselines (or would-be baselines) from a run's actual files: each copied whole
/// through `OutputFile` (a temporary file renamed into place), confined to its folder.
package enum Baselines {
    /// Copies the actual file of every entry `select` picks into `folder` under its relative
    /// path; returns the paths written. Stops at the first file that cannot be written.
    package static func write(_ entries: [FolderComparison.Entry], from actual: String, to folder: String, maxFileBytes: Int,
                              select: (FolderComparison.Status) -> Bool) throws(FileError) -> [String] {
        var written: [String] = []
        for entry in entries where select(entry.status) {
            let bytes = try Posix.readFile(actual + "/" + entry.path, as: "actual image", limit: maxFileBytes)
            try OutputFile.write(bytes, to: folder + "/" + entry.path, confinedTo: folder)
            written.append(entry.path)
        }
        return written
    }
}
