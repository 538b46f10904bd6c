import Support

/// Cairo 1.16's link annotations, caught as the file streams past: it writes each right after
/// its page, far from the tail the catalog update reads, and gives them neither /Contents (a
/// description, which PDF/UA asks for) nor /F 4 (printable, which PDF/A asks for). The update
/// rewrites each one it caught. An object counts only where the finished file's
/// cross-reference table puts that object at the offset it was caught at, so bytes inside a
/// compressed stream that merely look like an annotation are never taken.
package final class PDFAnnotations {
    /// Nothing caught or noted yet.
    package init() {}

    /// An annotation object as written: its number, offset and text from "N 0 obj" to "endobj".
    struct Caught {
        var number: Int
        var offset: Int
        var text: String
    }

    private(set) var caught: [Caught] = []
    /// Stopped catching (past `budget` bytes): the update then cannot describe every link.
    var overflowed: Bool { lock.withLock { stopped } }
    /// The link texts in drawing order (Cairo writes the annotations in that order).
    private(set) var linkTexts: [String] = []
    private var window: [UInt8] = []
    private var open: (number: Int, offset: Int, bytes: [UInt8])?
    /// The bytes held, counted by both sides: the drawing thread notes elements and links
    /// while a streamed file's writer thread scans (`ByteSink`); this is all they share.
    private let lock = Lock()
    private var held = 0
    private var stopped = false

    /// Bytes of annotations (and their link texts) kept at most: ~100,000 links.
    static let budget = 32 << 20
    private static let marker = Array(" 0 obj\n<< /Type /Annot".utf8)
    private static let end = Array("endobj".utf8)

    /// Every structure element hlrender opened (Document and Link aside), in drawing order,
    /// which is the structure tree's: its language and (a Figure's) alternative text.
    private(set) var elements: [(language: String?, alt: String?)] = []

    /// Notes the next structure element drawn.
    package func noteElement(language: String?, alt: String? = nil) {
        if hold(16 + (language?.utf8.count ?? 0) + (alt?.utf8.count ?? 0)) { elements.append((language, alt)) }
    }

    /// Notes the visible text of the next link drawn.
    package func noteLink(_ text: String) {
        if hold(text.utf8.count) { linkTexts.append(text) }
    }

    /// Looks at the next bytes of the file, which start at `offset`.
    package func scan(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        guard !overflowed, chunk.count > 0 else { return }
        // The last bytes seen and this chunk: a marker may straddle two writes.
        let keep = 48
        let base = offset - window.count
        let bytes = window + Array(chunk)
        var from = window.count
        if var current = open {
            let before = current.bytes.count
            current.bytes += chunk
            if let end = PDFBytes.find(Self.end, in: current.bytes, from: max(0, before - Self.end.count)) {
                finish(current.number, current.offset, Array(current.bytes[..<(end + Self.end.count)]))
                open = nil
                from = window.count + end + Self.end.count - before
            } else {
                // No annotation of Cairo's is this long: not one.
                open = current.bytes.count > 1 << 16 ? nil : current
                from = bytes.count
            }
        }
        while open == nil, let at = PDFBytes.find(Self.marker, in: bytes, from: max(0, from - Self.marker.count + 1)) {
            from = at + Self.marker.count
            // The object number: the digits right before " 0 obj", at a line's start.
            var start = at
            while start > 0, (0x30...0x39).contains(bytes[start - 1]) { start -= 1 }
            guard start < at, start > 0, bytes[start - 1] == 0x0A,
                  let number = Int(String(decoding: bytes[start..<at], as: UTF8.self)) else { continue }
            if let end = PDFBytes.find(Self.end, in: bytes, from: at) {
                finish(number, base + start, Array(bytes[start..<(end + Self.end.count)]))
                from = end + Self.end.count
            } else {
                open = (number, base + start, Array(bytes[start...]))
            }
        }
        window = Array(bytes.suffix(keep))
    }

    /// Counts `count` more bytes held; false, and stopped for good, past the budget.
    private func hold(_ count: Int) -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            held += count
            stopped = held > Self.budget
            return !stopped
        }
    }

    private func finish(_ number: Int, _ offset: Int, _ bytes: [UInt8]) {
        guard hold(bytes.count) else { return }
        caught.append(Caught(number: number, offset: offset, text: String(decoding: bytes, as: UTF8.self)))
    }
}
