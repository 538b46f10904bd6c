import Batch
import Card
import Glibc
import Synchronization
import Support

/// `--report FILE.jsonl`: one line per card as it finishes, flushed as it goes, so a killed
/// run's report holds every card that completed.
final class ReportFile: Sendable {
    private let fd: Int32
    private let lock = Mutex<Void>(())

    init(path: String) throws {
        try OutputFile.checkWritable(path)
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIFailure(message: "cannot write '\(path)': \(Posix.reason())") }
    }

    func write(_ outcome: BatchRun.Outcome) {
        var members: [(String, JSONValue)] = [("row", .number(Double(outcome.row))), ("output", .string(outcome.output))]
        switch outcome.status {
        case .rendered: members.append(("status", .string("ok")))
        case .skipped: members.append(("status", .string("skipped")))
        case let .failed(message): members += [("status", .string("error")), ("error", .string(message))]
        }
        members += [("ms", .number((outcome.milliseconds * 10).rounded() / 10)), ("bytes", .number(Double(outcome.bytes)))]
        if let alt = outcome.alt, !alt.isEmpty { members.append(("alt", .string(alt))) }
        let line = Array((compact(.members(members)) + "\n").utf8)
        lock.withLock { _ in _ = Posix.writeAll(fd, line) }
    }

    func close() { Glibc.close(fd) }

    /// One-line JSON (the report is JSON Lines).
    private func compact(_ value: JSONValue) -> String {
        switch value {
        case let .object(members): return "{" + members.map { JSONValue.quote($0.key) + ":" + compact($0.value) }.joined(separator: ",") + "}"
        case let .array(items): return "[" + items.map(compact).joined(separator: ",") + "]"
        default: return value.serialized()
        }
    }
}

/// Progress on stderr: a bar redrawn in place on a terminal, a plain line every few seconds
/// otherwise, nothing with --quiet; failures always, one line each, naming the row.
final class BatchProgress: Sendable {
    struct Counts {
        var rendered = 0, skipped = 0, failed = 0
        var lastDraw = 0.0
        var done: Int { rendered + skipped + failed }
    }

    private let total: Int
    private let quiet: Bool
    /// Against goldens a card can render and still fail its comparison: the summary then says
    /// "not rendered" for the cards that did not render, so the two lines never seem to disagree.
    private let goldens: Bool
    private let terminal: Bool
    private let start = Clock.now()
    private let counts = Mutex(Counts())

    init(total: Int, quiet: Bool, goldens: Bool = false) {
        self.total = total
        self.quiet = quiet
        self.goldens = goldens
        terminal = isatty(STDERR_FILENO) != 0
    }

    func record(_ outcome: BatchRun.Outcome) {
        counts.withLock { c in
            switch outcome.status {
            case .rendered: c.rendered += 1
            case .skipped: c.skipped += 1
            case let .failed(message):
                c.failed += 1
                say((terminal && !quiet ? "\r\u{1B}[K" : "") + "hlrender: row \(grouped(outcome.row)): \(message)\n")
            }
            guard !quiet else { return }
            let now = Clock.now()
            if now - c.lastDraw >= (terminal ? 100 : 5000) || c.done == total {
                c.lastDraw = now
                say(terminal ? "\r\u{1B}[K" + bar(c, now: now) : bar(c, now: now) + "\n")
            }
        }
    }

    /// Ends the progress display and prints the summary line; returns the counts.
    func finish() -> Counts {
        counts.withLock { c in
            let seconds = (Clock.now() - start) / 1000
            if terminal && !quiet { say("\r\u{1B}[K") }
            var line = "rendered \(grouped(c.rendered))"
            if c.skipped > 0 { line += ", skipped \(grouped(c.skipped))" }
            line += (goldens ? ", not rendered " : ", failed ") + grouped(c.failed)
            line += " in \(fixed(seconds, 1)) s, \(grouped(Int((Double(c.rendered) / max(seconds, 1e-3)).rounded()))) cards/s"
            say(line + "\n")
            return c
        }
    }

    private func bar(_ c: Counts, now: Double) -> String {
        let seconds = max((now - start) / 1000, 1e-3)
        let rate = Double(c.rendered + c.failed) / seconds
        let left = rate > 0 ? Double(total - c.done) / rate : 0
        let width = 24, filled = total == 0 ? width : width * c.done / total
        return "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "] "
            + "\(grouped(c.done))/\(grouped(total)) \(fixed(rate, 0)) cards/s ETA \(fixed(left, 0)) s"
            + (c.failed > 0 ? ", \(grouped(c.failed)) failed" : "")
    }

    private func say(_ text: String) { Posix.writeAll(STDERR_FILENO, Array(text.utf8)) }
}

/// 12,345
func grouped(_ n: Int) -> String {
    let digits = Array(String(abs(n)))
    var out = ""
    for (i, d) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(d)
    }
    return (n < 0 ? "-" : "") + out
}

/// `value` with `decimals` decimals.
func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    let scale = (0..<decimals).reduce(1.0) { r, _ in r * 10 }
    let scaled = Int((value * scale).rounded())
    guard decimals > 0 else { return String(scaled) }
    var text = String(abs(scaled))
    while text.count <= decimals { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
    return (scaled < 0 ? "-" : "") + text
}
