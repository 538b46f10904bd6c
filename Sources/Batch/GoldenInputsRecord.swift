import Goldens
import Support

extension GoldenInputs {
    /// A folder's record as read (nil: missing or damaged, so every card renders), read once a
    /// run on a core of its own while the rows load: the font hashes it holds are wanted before
    /// the suite is made, its cards after.
    package struct Record: Sendable {
        /// An entry and, when the record was read a card a line (`RecordLines`), the line it
        /// was read from: written back as it was while the entry is unchanged.
        struct Stored: Sendable {
            let entry: Entry
            let line: ArraySlice<UInt8>?
        }

        /// Where it is (and is written again).
        let path: String
        /// The font files' hashes it holds.
        let fontHashes: [FileHash]
        /// The cards that passed, by name.
        let stored: [String: Stored]
        /// The names in the record's order when that is sorted (as `save` writes it).
        let order: [String]?

        /// The record in `folder`, up to `readLimit` bytes.
        package init(folder: String, readLimit: Int) {
            path = folder + "/" + GoldenInputs.fileName
            let bytes = Posix.kind(path) == .regular ? try? Posix.readFile(path, as: "inputs", limit: readLimit) : nil
            // A card a line as `save` writes it, else (edited by hand) the general parser.
            let lines = bytes.flatMap(RecordLines.init)
            let json = lines?.head ?? bytes.flatMap { try? JSONValue.parse($0) }
            if case let .array(list)? = json?["fonts"] { fontHashes = list.compactMap(GoldenInputs.fileHash) } else { fontHashes = [] }
            let cards: [(name: String, value: JSONValue, line: ArraySlice<UInt8>?)]
            if let lines {
                cards = lines.cards.map { ($0.name, $0.value, $0.line) }
            } else if case let .object(members)? = json?["cards"] {
                cards = members.map { ($0.key, $0.value, nil) }
            } else {
                cards = []
            }
            var stored: [String: Stored] = [:]
            stored.reserveCapacity(cards.count)
            for (name, value, line) in cards {
                guard case let .string(key)? = value["key"], let golden = value["golden"].flatMap(GoldenInputs.fileHash),
                      case let .array(list)? = value["files"], case let .string(word)? = value["status"],
                      let status = GoldenStatus(rawValue: word), !status.fails else { continue }
                let files = list.compactMap(GoldenInputs.fileHash)
                guard files.count == list.count else { continue }
                stored[name] = Stored(entry: Entry(key: key, golden: golden, files: files, status: status), line: line)
            }
            self.stored = stored
            order = lines?.sorted == true ? lines?.cards.map(\.name) : nil
        }

        /// The font hashes it holds, by path: what `fontHash` may reuse.
        package var fonts: [String: FileHash] {
            Dictionary(fontHashes.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        }
    }
}
