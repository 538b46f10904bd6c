import Glibc
import Goldens
import Support

/// `compare EXPECTED_DIR ACTUAL_DIR --review`: the failing files served for review on
/// 127.0.0.1; Approve writes that baseline through `Baselines.write`, the code `--update`
/// runs. Ends when the page says Done. Exit 0 when every failing file was approved.
func reviewFolders(_ entries: [FolderComparison.Entry], expected: String, actual: String, maxFileBytes: Int) throws -> Int32 {
    let failing = entries.enumerated().filter { $0.element.status.fails }
    let items = failing.map { index, entry in
        ReviewPage.Item(index: index, path: entry.path, status: entry.status,
                        kind: entry.status == .new ? "new" : entry.outcome?.kind?.name ?? entry.status.rawValue,
                        message: entry.message, approvable: entry.status == .changed || entry.status == .new, difference: entry.panel != nil)
    }
    let page = Array(ReviewPage.html(items, title: "hlrender review: \(expected) vs \(actual)").utf8)
    var decisions: [Int: String] = [:]
    let server = try ReviewServer()
    Posix.writeAll(STDERR_FILENO, Array("hlrender: review \(failing.count) files at \(server.url) (Done on the page ends it)\n".utf8))
    var failure: Error?

    func state(_ indices: [Int]) -> ReviewServer.Response {
        let list = indices.sorted().map { JSONValue.object([("index", .number(Double($0))), ("decision", .string(decisions[$0] ?? ""))]) }
        return ReviewServer.Response(body: Array(JSONValue.object([("decisions", .array(list))]).serialized().utf8))
    }
    func approve(_ indices: [Int]) -> ReviewServer.Response {
        for i in indices {
            do {
                _ = try Baselines.write([entries[i]], from: actual, to: expected, maxFileBytes: maxFileBytes) { _ in true }
                decisions[i] = "approved"
            } catch {
                failure = error
                decisions[i] = "not written: \(error)"
            }
        }
        return state(indices)
    }
    let approvable = Set(items.filter(\.approvable).map(\.index))
    server.serve { request in
        let parts = request.route.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let index = parts.count > 1 ? Int(parts[1]).flatMap { approvable.contains($0) || entries.indices.contains($0) ? $0 : nil } : nil
        switch (request.method, parts.first ?? "") {
        case ("GET", ""): return (ReviewServer.Response(type: "text/html; charset=utf-8", body: page), false)
        case ("GET", "state"): return (state(Array(decisions.keys)), false)
        case ("GET", "image"):
            guard let index, parts.count == 3 else { break }
            let entry = entries[index]
            let bytes: [UInt8]? = switch parts[2] {
            case "expected": try? Posix.readFile(expected + "/" + entry.path, as: "image", limit: maxFileBytes)
            case "actual": try? Posix.readFile(actual + "/" + entry.path, as: "image", limit: maxFileBytes)
            case "difference": entry.panel
            default: nil
            }
            guard let bytes else { break }
            return (ReviewServer.Response(type: "image/png", body: bytes), false)
        case ("POST", "approve"):
            guard let index, approvable.contains(index) else { break }
            return (approve([index]), false)
        case ("POST", "reject"):
            guard let index, approvable.contains(index) else { break }
            decisions[index] = "rejected"
            return (state([index]), false)
        case ("POST", "approve-kind"):
            let kind = parts.count > 1 ? percentDecoded(parts[1]) : ""
            return (approve(items.filter { $0.approvable && $0.kind == kind && decisions[$0.index] == nil }.map(\.index)), false)
        case ("POST", "done"): return (state(Array(decisions.keys)), true)
        default: break
        }
        return (ReviewServer.Response(status: "404 Not Found", body: Array("{}".utf8)), false)
    }
    for (index, entry) in failing where decisions[index] == "approved" {
        Posix.writeAll(STDERR_FILENO, Array("hlrender: approved \(expected)/\(entry.path)\n".utf8))
    }
    let approved = decisions.values.count { $0 == "approved" }, rejected = decisions.values.count { $0 == "rejected" }
    print("review: \(approved) approved, \(rejected) rejected, \(failing.count - approved - rejected) undecided")
    if let failure { throw failure }
    return approved == failing.count ? ExitStatus.success : ExitStatus.differ
}

/// `%XX` escapes of a path segment decoded (invalid ones kept as they are).
private func percentDecoded(_ text: String) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
        if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
