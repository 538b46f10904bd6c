import Glibc
import Goldens
import Support

/// A review: the files shown, how to get their images, and what Approve does (the same
/// code as `--update` in each front end).
struct ReviewSession {
    var items: [ReviewPage.Item]
    var title: String
    /// An item's image: "expected", "actual" or "difference".
    var image: (Int, String) -> [UInt8]?
    var approve: (Int) throws -> Void
}

/// Serves `session` on 127.0.0.1 until the page says Done; the items approved and rejected.
/// An approval that cannot be written is reported on the page and thrown at the end.
func runReview(_ session: ReviewSession) throws -> (approved: [Int], rejected: [Int]) {
    let page = Array(ReviewPage.html(session.items, title: session.title).utf8)
    var decisions: [Int: String] = [:]
    let server = try ReviewServer()
    Posix.writeAll(STDERR_FILENO, Array("hlrender: review \(session.items.count) files at \(server.url) (Done on the page ends it)\n".utf8))
    var failure: Error?
    let items = Dictionary(session.items.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })

    func state(_ indices: [Int]) -> ReviewServer.Response {
        let list = indices.sorted().map { JSONValue.object([("index", .number(Double($0))), ("decision", .string(decisions[$0] ?? ""))]) }
        return ReviewServer.Response(body: Array(JSONValue.object([("decisions", .array(list))]).serialized().utf8))
    }
    func approve(_ indices: [Int]) -> ReviewServer.Response {
        for i in indices {
            do {
                try session.approve(i)
                decisions[i] = "approved"
            } catch {
                failure = error
                decisions[i] = "not written: \(error)"
            }
        }
        return state(indices)
    }
    server.serve { request in
        let parts = request.route.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let item = parts.count > 1 ? Int(parts[1]).flatMap { items[$0] } : nil
        switch (request.method, parts.first ?? "") {
        case ("GET", ""): return (ReviewServer.Response(type: "text/html; charset=utf-8", body: page), false)
        case ("GET", "state"): return (state(Array(decisions.keys)), false)
        case ("GET", "image"):
            guard let item, parts.count == 3, let bytes = session.image(item.index, parts[2]) else { break }
            return (ReviewServer.Response(type: "image/png", body: bytes), false)
        case ("POST", "approve"):
            guard let item, item.approvable else { break }
            return (approve([item.index]), false)
        case ("POST", "reject"):
            guard let item, item.approvable else { break }
            decisions[item.index] = "rejected"
            return (state([item.index]), false)
        case ("POST", "approve-kind"):
            let kind = parts.count > 1 ? PercentEncoding.decode(parts[1][...]).map { String(decoding: $0, as: UTF8.self) } ?? "" : ""
            return (approve(session.items.filter { $0.approvable && $0.kind == kind && decisions[$0.index] == nil }.map(\.index)), false)
        case ("POST", "done"): return (state(Array(decisions.keys)), true)
        default: break
        }
        return (ReviewServer.Response(status: "404 Not Found", body: Array("{}".utf8)), false)
    }
    if let failure { throw failure }
    return (decisions.filter { $0.value == "approved" }.keys.sorted(), decisions.filter { $0.value == "rejected" }.keys.sorted())
}

/// The review's last words: what was approved (stderr) and the counts (stdout); 0 when every
/// file shown was approved.
func reviewSummary(_ session: ReviewSession, approved: [Int], rejected: [Int], folder: String) -> Int32 {
    let items = Dictionary(session.items.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
    for i in approved { Posix.writeAll(STDERR_FILENO, Array("hlrender: approved \(folder)/\(items[i]?.path ?? "")\n".utf8)) }
    let total = session.items.count
    print("review: \(approved.count) approved, \(rejected.count) rejected, \(total - approved.count - rejected.count) undecided")
    return approved.count == total ? ExitStatus.success : ExitStatus.differ
}

/// `compare EXPECTED_DIR ACTUAL_DIR --review`: Approve writes the baseline through
/// `Baselines.write`, the code `--update` runs.
func reviewFolders(_ entries: [FolderComparison.Entry], expected: String, actual: String, maxFileBytes: Int) throws -> Int32 {
    let items = entries.enumerated().filter { $0.element.status.fails }.map { index, entry in
        ReviewPage.Item(index: index, path: entry.path, status: entry.status,
                        kind: entry.status == .new ? "new" : entry.outcome?.kind?.name ?? entry.status.rawValue,
                        message: entry.message, approvable: entry.status == .changed || entry.status == .new, difference: entry.panel != nil)
    }
    let session = ReviewSession(items: items, title: "hlrender review: \(expected) vs \(actual)", image: { index, which in
        let entry = entries[index]
        switch which {
        case "expected": return try? Posix.readFile(expected + "/" + entry.path, as: "image", limit: maxFileBytes)
        case "actual": return try? Posix.readFile(actual + "/" + entry.path, as: "image", limit: maxFileBytes)
        case "difference": return entry.panel
        default: return nil
        }
    }, approve: { index in
        _ = try Baselines.write([entries[index]], from: actual, to: expected, maxFileBytes: maxFileBytes) { _ in true }
    })
    let (approved, rejected) = try runReview(session)
    return reviewSummary(session, approved: approved, rejected: rejected, folder: expected)
}
