extension JSONValue {
    /// `.object` from (key, value) pairs.
    package static func members(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(pairs.map { (key: $0.0, value: $0.1) })
    }

    /// An object's (key, value) pairs; empty for any other value.
    package var objectMembers: [(String, JSONValue)] {
        if case let .object(members) = self { return members.map { ($0.key, $0.value) } }
        return []
    }

    /// Indented JSON, members in their order.
    package func serialized(indent: String = "") -> String {
        var out: [UInt8] = []
        write(to: &out, indent: Array(indent.utf8))
        return String(decoding: out, as: UTF8.self)
    }

    /// JSON on one line with no spaces, members in their order: for text that is hashed, not
    /// read (a golden suite's card inputs).
    package var compact: String {
        var out: [UInt8] = []
        write(to: &out, indent: nil)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value's JSON to `out` (indented from `indent`; nil: compact): one growing
    /// byte buffer, not a string per member joined at each level (a suite's inputs serialise
    /// every card's spec on each run).
    private func write(to out: inout [UInt8], indent: [UInt8]?) {
        switch self {
        case let .object(members):
            JSONValue.writeList(members, open: "{", close: "}", indent: indent, to: &out) { member, inner, out in
                JSONValue.appendQuoted(member.key, to: &out)
                out.append(contentsOf: (inner == nil ? ":" : ": ").utf8)
                member.value.write(to: &out, indent: inner)
            }
        case let .array(items):
            JSONValue.writeList(items, open: "[", close: "]", indent: indent, to: &out) { item, inner, out in item.write(to: &out, indent: inner) }
        case let .string(text): JSONValue.appendQuoted(text, to: &out)
        case let .number(value):
            out.append(contentsOf: (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.isFinite ? String(value) : "null").utf8)
        case let .bool(value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    /// An object's members or an array's items between `open` and `close`: each on a line of
    /// its own one level in (compact: side by side), `each` writing one at the inner indent.
    private static func writeList<Item>(_ items: [Item], open: Unicode.Scalar, close: Unicode.Scalar, indent: [UInt8]?, to out: inout [UInt8],
                                        _ each: (Item, [UInt8]?, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: open))
        if items.isEmpty { out.append(UInt8(ascii: close)); return }
        let inner = indent.map { $0 + [0x20, 0x20] }
        for (i, item) in items.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if let inner { out.append(0x0A); out += inner }
            each(item, inner, &out)
        }
        if let indent { out.append(0x0A); out += indent }
        out.append(UInt8(ascii: close))
    }

    /// A JSON string literal (control characters escaped).
    package static func quote(_ text: String) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal (control characters, quotes and backslashes
    /// escaped) to `out`.
    package static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: their bytes go in at once.
        var text = text
        let plain = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case ..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            default: out.append(byte)  // UTF-8 passes as it is: only ASCII bytes are escaped
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
