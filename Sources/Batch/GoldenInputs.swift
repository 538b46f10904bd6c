import Goldens
import Support
import Synchronization

/// Incremental golden suites: what each passing card was rendered from, kept beside the
/// goldens (`hlrender-inputs.json`), so that the next run renders only the cards whose inputs
/// changed. A card's key hashes the run's part (hlrender's version, its libraries, every font
/// it can choose from, the hyphenation dictionaries, the encoder and PDF settings), the card's
/// part (its spec with variables filled and seed set, its output name, its comparison limits),
/// its golden's bytes and the content of every file its last render read. The renderer is
/// deterministic, so the same key means the same output compared with the same golden under
/// the same limits: the same verdict, without drawing.
///
/// Files are hashed by content. A file whose size and modification time are those recorded
/// with its hash is taken to have that hash without being read again (as make and ninja trust
/// times); a fresh clone's files all have new times, so CI hashes them once and agrees.
package final class GoldenInputs: Sendable {
    package static let fileName = "hlrender-inputs.json"

    /// A file's content hash and the size and time it had then.
    package struct FileHash: Sendable, Equatable {
        package var path: String
        var stamp: String
        package var sha256: String
    }

    struct Entry: Sendable, Equatable {
        var key: String
        var golden: FileHash
        var files: [FileHash]
        /// The verdict it passed with: same or within.
        var status: GoldenStatus
    }

    /// The run's part of every key, as its digest: the text (every font's hash among it) is
    /// hashed once a run, not once a card.
    let run: String
    private let path: String
    private let readLimit: Int
    /// The record's entries, each with the line it was read from (`Record`).
    private let stored: [String: Record.Stored]
    /// The stored names in the record's order, when that is sorted (as `save` writes it).
    private let order: [String]?
    /// Changes this run: a new entry, or nil where a card no longer passes.
    private let changes = Mutex<[String: Entry?]>([:])
    /// Kept until `--update` records the card's golden (its key is on the output's bytes).
    private let pending = Mutex<[String: Entry]>([:])
    /// Each file's hash, once a run.
    private let hashes = Mutex<[String: FileHash]>([:])

    /// The run's font files as hashed (`fontHash`), written with the record for the next run,
    /// and those the record held.
    private let fonts: [FileHash]
    private let storedFonts: [FileHash]

    /// The cards of a folder's record, as `Record` read it; a missing or damaged record is
    /// empty (every card renders).
    init(record: Record, run: String, fonts: [FileHash], readLimit: Int) {
        (self.run, self.fonts, self.readLimit, path) = (SHA256.hex(Array(run.utf8)), fonts, readLimit, record.path)
        (stored, order, storedFonts) = (record.stored, record.order, record.fontHashes)
    }

    /// A font file's hash: the recorded one while its size and time are the same, else read.
    package static func fontHash(_ path: String, recorded: [String: FileHash]) -> FileHash? {
        guard let stamp = stamp(path) else { return nil }
        if let known = recorded[path], known.stamp == stamp { return known }
        guard let bytes = try? Posix.readFile(path, as: "font", limit: Int.max) else { return nil }
        return FileHash(path: path, stamp: stamp, sha256: SHA256.hex(bytes))
    }

    /// The key of a card whose own part is `card`, compared with a golden of hash `golden`,
    /// having read `files`.
    private func key(card: String, golden: String, files: [FileHash]) -> String {
        var text = [run, card, golden].joined(separator: "\u{0}")
        for file in files { text += "\u{0}" + file.path + "\u{0}" + file.sha256 }
        return SHA256.hex(Array(text.utf8))
    }

    /// The verdict stored with the card's passing golden (at `goldenPath`) when its inputs are
    /// the same now.
    func unchanged(_ name: String, card: String, goldenPath: String) -> GoldenStatus? {
        guard let entry = stored[name]?.entry, let golden = hash(goldenPath, known: entry.golden, memo: false) else { return nil }
        var files: [FileHash] = []
        for file in entry.files {
            guard let now = hash(file.path, known: file, memo: true) else { return nil }
            files.append(now)
        }
        return key(card: card, golden: golden.sha256, files: files) == entry.key ? entry.status : nil
    }

    /// The card passed with `status` against `golden` (the golden's bytes, at `goldenPath`),
    /// or, `recorded`, will once `--update` writes them there.
    func passed(_ name: String, status: GoldenStatus, card: String, golden: [UInt8], goldenPath: String, files: [String],
                once recorded: Bool) {
        // A file the render read that cannot be read now keeps the card from being skipped.
        let read = files.compactMap { hash($0, known: nil, memo: true) }
        guard read.count == files.count else { return failed(name) }
        let sha = SHA256.hex(golden)
        let goldenHash = FileHash(path: goldenPath, stamp: recorded ? "" : Self.stamp(goldenPath) ?? "", sha256: sha)
        let entry = Entry(key: key(card: card, golden: sha, files: read), golden: goldenHash, files: read, status: status)
        if recorded {
            pending.withLock { $0[name] = entry }
            changes.withLock { $0[name] = .some(nil) }
        } else {
            changes.withLock { $0[name] = entry }
        }
    }

    /// The card failed, could not be rendered, or has no golden: nothing is stored for it.
    func failed(_ name: String) { changes.withLock { $0[name] = .some(nil) } }

    /// `--update` wrote the card's golden.
    func recorded(_ name: String) {
        guard var entry = pending.withLock({ $0.removeValue(forKey: name) }) else { return }
        entry.golden.stamp = Self.stamp(entry.golden.path) ?? ""
        changes.withLock { $0[name] = entry }
    }

    /// Writes the record with this run's changes when there are any (the cards of other
    /// shards keep theirs).
    func save() throws {
        let changes = changes.withLock { $0 }
        let changed = changes.contains { name, entry in stored[name]?.entry != entry }
        guard changed || fonts != storedFonts else { return }
        let file = { (hash: FileHash) in
            JSONValue.object([("path", .string(hash.path)), ("stamp", .string(hash.stamp)), ("sha256", .string(hash.sha256))])
        }
        // One card a line (a suite's record is committed with its goldens: a diff shows the
        // cards that changed), written straight into the bytes: a 10,000-card suite's record
        // took a tenth of a second as a tree of values pretty-printed, and 50 ms as a tree
        // written a card a line, against 22 ms here, on one core at the end of the run.
        var out = Array("{\n  \"format\": 2,\n  \"fonts\": ".utf8)
        out += JSONValue.array(fonts.map(file)).serialized(indent: "  ").utf8
        out += ",\n  \"cards\": {".utf8
        let fields = { (out: inout [UInt8], pairs: [(String, String)]) in
            for (k, (name, value)) in pairs.enumerated() {
                out += (k == 0 ? "{" : ", ").utf8
                JSONValue.appendQuoted(name, to: &out)
                out += ": ".utf8
                JSONValue.appendQuoted(value, to: &out)
            }
        }
        let hash = { (out: inout [UInt8], hash: FileHash) in
            fields(&out, [("path", hash.path), ("stamp", hash.stamp), ("sha256", hash.sha256)])
            out.append(UInt8(ascii: "}"))
        }
        // Sorted by name's bytes; the record's own order serves when this run added no name.
        let names = order.flatMap { order in changes.keys.allSatisfy { stored[$0] != nil } ? order : nil }
            ?? Set(stored.keys).union(changes.keys).sorted(by: RecordLines.precedes)
        var k = 0
        for name in names {
            let old = stored[name]
            guard let entry = changes[name] ?? old?.entry else { continue }
            defer { k += 1 }
            out += (k == 0 ? "\n    " : ",\n    ").utf8
            if let old, let line = old.line, old.entry == entry {
                out += line
                continue
            }
            JSONValue.appendQuoted(name, to: &out)
            out += ": ".utf8
            fields(&out, [("key", entry.key), ("status", entry.status.rawValue)])
            out += ", \"golden\": ".utf8
            hash(&out, entry.golden)
            out += ", \"files\": [".utf8
            for (i, file) in entry.files.enumerated() {
                if i > 0 { out += ", ".utf8 }
                hash(&out, file)
            }
            out += "]}".utf8
        }
        out += (k == 0 ? "}\n}\n" : "\n  }\n}\n").utf8
        try OutputFile.write(out, to: path)
    }

    /// The file's hash now: `known`'s when the size and time are still its, else read (nil:
    /// it cannot be read). With `memo`, once a run (a picture many cards share).
    private func hash(_ file: String, known: FileHash?, memo: Bool) -> FileHash? {
        if memo, let done = hashes.withLock({ $0[file] }) { return done }
        guard let stamp = Self.stamp(file) else { return nil }
        var result: FileHash
        if let known, known.path == file, !known.stamp.isEmpty, known.stamp == stamp {
            result = known
        } else {
            guard let bytes = try? Posix.readFile(file, as: "input", limit: readLimit) else { return nil }
            result = FileHash(path: file, stamp: stamp, sha256: SHA256.hex(bytes))
        }
        if memo { hashes.withLock { $0[file] = result } }
        return result
    }

    static func stamp(_ file: String) -> String? { Posix.stamp(file) }

    static func fileHash(_ json: JSONValue) -> FileHash? {
        guard case let .string(path)? = json["path"], case let .string(stamp)? = json["stamp"],
              case let .string(sha)? = json["sha256"] else { return nil }
        return FileHash(path: path, stamp: stamp, sha256: sha)
    }
}
