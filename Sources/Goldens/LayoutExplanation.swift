import Compare
import Support

/// Why a card's render differs from its golden, in the card's terms: which spec keys changed
/// and what moved, rewrapped or was retyped in the layout. Both sides are the record
/// `--update` keeps beside a golden (`NAME.layout.json`: the spec as rendered, variables
/// filled, and the layout dump) and the same record of this run. Pure JSON comparison.
package enum LayoutExplanation {
    /// The record's file name beside a golden.
    package static func fileName(forGolden name: String) -> String { name + ".layout.json" }

    /// The record of one render: its spec and its layout dump.
    package static func record(spec: JSONValue, layout: JSONValue) -> JSONValue {
        .object([("spec", spec), ("layout", layout)])
    }

    /// The findings, most telling first, each "NODE: what" (`blocks[1]: moved (0, 12)`; a
    /// stack's child `blocks[1].blocks[0]`).
    package static func explain(expected: JSONValue, actual: JSONValue) -> [String] {
        var findings: [String] = []
        let (oldBlocks, newBlocks) = (blocks(expected["layout"]), blocks(actual["layout"]))
        if oldBlocks.count != newBlocks.count {
            findings.append("card: \(oldBlocks.count) blocks -> \(newBlocks.count)")
        }
        for (i, (old, new)) in zip(oldBlocks, newBlocks).enumerated() {
            findings += block("blocks[\(i)]", old, new, depth: 0, shift: (0, 0))
        }
        findings += specChanges(expected["spec"], actual["spec"])
        if findings.isEmpty, let old = expected["layout"], let new = actual["layout"],
           number(old["width"]) != number(new["width"]) || number(old["height"]) != number(new["height"]) {
            findings.append("card: size changed")
        }
        return findings
    }

    /// A block's layout: its kind, box, text, lines and spans; a stack's children in turn (as
    /// deep as a spec may nest them), each moved only by what its stack's move does not explain
    /// (`shift`).
    private static func block(_ node: String, _ old: JSONValue, _ new: JSONValue, depth: Int, shift: (Double, Double)) -> [String] {
        var out: [String] = []
        if string(old["type"]) != string(new["type"]) { return ["\(node): \(string(old["type"]) ?? "?") block -> \(string(new["type"]) ?? "?")"] }
        let (x, y) = (delta(old["x"], new["x"]), delta(old["y"], new["y"]))
        let (dx, dy) = (((x - shift.0) * 10).rounded() / 10, ((y - shift.1) * 10).rounded() / 10)
        let (dw, dh) = (delta(old["width"], new["width"]), delta(old["height"], new["height"]))
        if dw == 0, dh == 0, dx != 0 || dy != 0 { out.append("\(node): moved (\(format(dx)), \(format(dy)))") }
        if dw != 0 || dh != 0 { out.append("\(node): resized (\(format(dw)), \(format(dh)))") }
        if string(old["src"]) != string(new["src"]) {
            out.append("\(node): picture changed (\(string(old["src"]) ?? "none") -> \(string(new["src"]) ?? "none"))")
        }
        let (oldLines, newLines) = (lines(old), lines(new))
        let (oldText, newText) = (oldLines.joined(), newLines.joined())
        if oldText != newText {
            out.append("\(node): text changed: " + wordDiff(oldText, newText))
        } else if oldLines != newLines {
            let k = zip(oldLines, newLines).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? min(oldLines.count, newLines.count)
            let was = k < oldLines.count ? oldLines[k] : "", now = k < newLines.count ? newLines[k] : ""
            out.append("\(node): rewrapped, \(oldLines.count) lines -> \(newLines.count); line \(k + 1) \"\(was.trimmed)\" -> \"\(now.trimmed)\"")
        }
        let (oldFonts, newFonts) = (fonts(old), fonts(new))
        if oldFonts != newFonts { out.append("\(node): font \(oldFonts.joined(separator: ", ")) -> \(newFonts.joined(separator: ", "))") }
        if case let .array(a)? = old["spans"], case let .array(b)? = new["spans"] {
            for (j, (s, t)) in zip(a, b).enumerated() {
                let changed = styleChanges(s["style"], t["style"])
                if !changed.isEmpty {
                    let text = spanText(s, oldText)
                    out.append("\(node).spans[\(j)]\(text.isEmpty ? "" : " \"\(text)\""): " + changed.joined(separator: ", "))
                }
            }
        }
        let (oldChildren, newChildren) = (blocks(old), blocks(new))
        if depth < maxDepth, !oldChildren.isEmpty || !newChildren.isEmpty {
            if oldChildren.count != newChildren.count { out.append("\(node): \(oldChildren.count) blocks -> \(newChildren.count)") }
            for (i, (a, b)) in zip(oldChildren, newChildren).enumerated() {
                // A stack that moved whole carries its children; one resized re-places them.
                out += block("\(node).blocks[\(i)]", a, b, depth: depth + 1, shift: dw == 0 && dh == 0 ? (x, y) : (0, 0))
            }
        }
        return out
    }

    /// How many stacks deep a node path may go (a record or an `ignore` entry is input: its
    /// walk is bounded).
    static let maxDepth = 16

    /// A node's indices: `blocks[N]`, a stack's child `blocks[N].blocks[K]` (as deep as
    /// `maxDepth`), each optionally `.spans[M]` (nil: not one).
    package static func node(_ text: String) -> (blocks: [Int], span: Int?)? {
        func index(_ part: Substring, _ name: String) -> Int? {
            guard part.hasPrefix(name + "["), part.hasSuffix("]") else { return nil }
            let digits = part.dropFirst(name.count + 1).dropLast()
            guard (1...6).contains(digits.count), digits.allSatisfy(\.isASCII), let n = Int(digits) else { return nil }
            return n
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= maxDepth + 2 else { return nil }
        var path: [Int] = []
        for (k, part) in parts.enumerated() {
            if let block = index(part, "blocks") {
                path.append(block)
            } else if k == parts.count - 1, !path.isEmpty, let span = index(part, "spans") {
                return (path, span)
            } else {
                return nil
            }
        }
        return path.isEmpty ? nil : (path, nil)
    }

    /// The node's box in a record's layout, in pixels (the card's scale applied, rounded
    /// outwards; a span over several lines: the rectangle around its boxes); nil when the
    /// layout has no such block or span.
    package static func box(of text: String, in record: JSONValue) -> PixelRect? {
        let found = boxes(of: text, in: record)
        guard let first = found.first else { return nil }
        let x0 = found.map(\.x).min()!, y0 = found.map(\.y).min()!
        let x1 = found.map { $0.x + $0.width }.max()!, y1 = found.map { $0.y + $0.height }.max()!
        return found.count == 1 ? first : PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private static func boxes(of text: String, in record: JSONValue) -> [PixelRect] {
        guard let (path, s) = node(text), let layout = record["layout"] else { return [] }
        var block = layout
        for b in path {
            let children = blocks(block)
            guard b < children.count else { return [] }
            block = children[b]
        }
        let scale = number(layout["scale"]) ?? 1
        func rect(_ box: JSONValue, top: String) -> PixelRect? {
            guard let x = number(box["x"]), let y = number(box[top]), let w = number(box["width"]), let h = number(box["height"]) else { return nil }
            let limit = 0...1_000_000_000
            let (x0, y0) = (Checked.clamped(x * scale, .down, in: limit), Checked.clamped(y * scale, .down, in: limit))
            let (x1, y1) = (Checked.clamped((x + w) * scale, .up, in: limit), Checked.clamped((y + h) * scale, .up, in: limit))
            return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
        guard let s else { return rect(block, top: "y").map { [$0] } ?? [] }
        guard case let .array(spans)? = block["spans"], s < spans.count, case let .array(boxes)? = spans[s]["boxes"] else { return [] }
        return boxes.compactMap { rect($0, top: "top") }
    }

    /// Changed spec keys (leaves), each with the kind of change it makes: at most 8.
    private static func specChanges(_ old: JSONValue?, _ new: JSONValue?) -> [String] {
        var (a, b): ([String: String], [String: String]) = ([:], [:])
        flatten(old, "", into: &a)
        flatten(new, "", into: &b)
        let paths = Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
        return paths.prefix(8).map { path in
            let key = path.split(separator: ".").last.map { String($0.split(separator: "[").first ?? $0) } ?? path
            let node = path.split(separator: ".").dropLast().joined(separator: ".")
            return "\(node.isEmpty ? "card" : node): \(kind(of: key)) (\(key) \(a[path] ?? "unset") -> \(b[path] ?? "unset"))"
        }
    }

    /// What a key's change does to the picture, in a reviewer's word.
    static func kind(of key: String) -> String {
        switch key {
        case "color", "highlight", "background", "outline-color", "underline-color", "dot-color", "stops", "gradient", "shadow": "colour"
        case "font", "font-family", "weight", "style", "stretch", "features", "variations": "font"
        case "size", "font-scale", "letter-spacing", "line-height": "size"
        case "text", "text-file", "markup", "markup-file", "markdown", "markdown-file", "steps": "text"
        case "src", "image": "picture"
        case "anchor", "offset", "padding", "align": "position"
        case "width", "height", "wrap", "max-lines", "fit": "wrapping"
        default: "setting"
        }
    }

    private static func flatten(_ value: JSONValue?, _ path: String, into out: inout [String: String]) {
        switch value {
        case let .object(members)?: for (key, member) in members { flatten(member, path.isEmpty ? key : path + "." + key, into: &out) }
        case let .array(items)?:
            // Lists of blocks and spans are nodes; other lists (gradient stops) are one value.
            if items.allSatisfy({ if case .object = $0 { true } else { false } }), !items.isEmpty {
                for (i, item) in items.enumerated() { flatten(item, "\(path)[\(i)]", into: &out) }
            } else {
                out[path] = compact(value ?? .null)
            }
        case let value?: out[path] = compact(value)
        case nil: break
        }
    }

    private static func styleChanges(_ old: JSONValue?, _ new: JSONValue?) -> [String] {
        var (a, b): ([String: String], [String: String]) = ([:], [:])
        flatten(old, "", into: &a)
        flatten(new, "", into: &b)
        return Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted().map { "\(kind(of: $0)) (\($0) \(a[$0] ?? "unset") -> \(b[$0] ?? "unset"))" }
    }

    /// Words removed and added, in order: `-"brave" +"bold"`.
    static func wordDiff(_ old: String, _ new: String) -> String {
        let a = old.split(whereSeparator: \.isWhitespace).map(String.init), b = new.split(whereSeparator: \.isWhitespace).map(String.init)
        // Common prefix and suffix; what lies between is the change (enough for a review line).
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var end = 0
        while end < a.count - start, end < b.count - start, a[a.count - 1 - end] == b[b.count - 1 - end] { end += 1 }
        let removed = a[start..<(a.count - end)].joined(separator: " "), added = b[start..<(b.count - end)].joined(separator: " ")
        let parts = (removed.isEmpty ? [] : ["-\"\(clip(removed))\""]) + (added.isEmpty ? [] : ["+\"\(clip(added))\""])
        return parts.isEmpty ? "spacing only" : parts.joined(separator: " ")
    }

    /// A value on one line (`[0, -20]`), clipped.
    private static func compact(_ value: JSONValue) -> String {
        clip(value.serialized().split(whereSeparator: \.isNewline).map { $0.drop { $0 == " " } }.joined(separator: " ")
            .replacing("[ ", with: "[").replacing(" ]", with: "]").replacing("{ ", with: "{").replacing(" }", with: "}"))
    }

    private static func clip(_ text: String) -> String { text.count > 60 ? String(text.prefix(57)) + "..." : text }

    /// The blocks of a layout, or of a stack block.
    private static func blocks(_ layout: JSONValue?) -> [JSONValue] {
        guard case let .array(items)? = layout?["blocks"] else { return [] }
        return items
    }

    private static func lines(_ block: JSONValue) -> [String] {
        guard case let .array(items)? = block["lines"] else { return [] }
        return items.compactMap { string($0["text"]) }
    }

    private static func fonts(_ block: JSONValue) -> [String] {
        guard case let .array(items)? = block["lines"] else { return [] }
        var seen: [String] = []
        for line in items {
            guard case let .array(names)? = line["fonts"] else { continue }
            for case let .string(name) in names where !seen.contains(name) { seen.append(name) }
        }
        return seen
    }

    private static func spanText(_ span: JSONValue, _ text: String) -> String {
        guard let start = number(span["start"]), let end = number(span["end"]) else { return "" }
        let utf8 = Array(text.utf8)
        let (s, e) = (Checked.clamped(start, .down, in: 0...utf8.count), Checked.clamped(end, .down, in: 0...utf8.count))
        return s < e ? clip(String(decoding: utf8[s..<e], as: UTF8.self)) : ""
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case let .string(s)? = value { s } else { nil }
    }

    private static func number(_ value: JSONValue?) -> Double? {
        if case let .number(n)? = value { n } else { nil }
    }

    /// new - old, rounded to a tenth of a pixel (0 when either is missing).
    private static func delta(_ old: JSONValue?, _ new: JSONValue?) -> Double {
        guard let a = number(old), let b = number(new) else { return 0 }
        return ((b - a) * 10).rounded() / 10
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Checked.clamped(value, .toNearestOrAwayFromZero, in: -1_000_000_000...1_000_000_000)) : String(value)
    }
}
