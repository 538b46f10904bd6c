import CPNGCodec

/// Rewrites a tagged PDF's page contents as Cairo writes them (`PDFArtifacts`), keeping the
/// file streamed: nothing is held but the content stream being read and, at the end, the
/// cross-reference table. A content stream is recognised by the header Cairo writes for it
/// (`N 0 obj\n<< /Length M 0 R\n   /Filter /FlateDecode\n>>\nstream\n`) and ends where the
/// length object that follows it gives its exact length. Each rewrite moves the objects after
/// it, so Cairo's table is rewritten with their new offsets, and it is checked first: every
/// rewritten stream and length object must be where the table puts it. Bytes that only look
/// like a header (inside an image's stored data) then fail the file instead of corrupting it.
package final class PDFStreamFilter {
    private enum State {
        case passing
        /// Reading a stream's data (from `data` in the buffer): its object and length object
        /// numbers and where its object started (an original offset).
        case capturing(object: Int, length: Int, objectOffset: Int, data: Int)
        /// After `endobj\nxref\n` (from `from` in the buffer): what may be the table, held
        /// until the file ends (released when more follows it).
        case holding(from: Int)
    }

    /// One rewritten stream: where its object and length object were, the original range it
    /// replaced and how much longer (or shorter) the new bytes are.
    private struct Edit {
        var object: Int
        var objectOffset: Int
        var length: Int
        var lengthOffset: Int
        var newLengthOffset: Int
        var end: Int
        var shift: Int
    }

    private var state = State.passing
    private var edits: [Edit] = []
    /// Original bytes not yet decided on, and a few before them (a header is read backwards
    /// from its end); `base` is the original offset of `buffer[0]`.
    private var buffer: [UInt8] = []
    private var base = 0
    /// Buffer bytes before this index are written (or replaced).
    private var emitted = 0
    /// Where the next search for a mark starts.
    private var scanned = 0
    private var totalShift = 0
    /// A stream that looked like a page's content was passed on unread (past `streamLimit`).
    private var unmarked = false
    private let emit: (UnsafeRawBufferPointer) -> Bool

    /// A content stream longer than this is passed as it is (its page then has no Artifacts).
    static let streamLimit = 64 << 20
    private static let streamMark = Array(" 0 R\n   /Filter /FlateDecode\n>>\nstream\n".utf8)
    private static let xrefMark = Array("endobj\nxref\n".utf8)
    private static let streamEnd = Array("\nendstream\nendobj\n".utf8)
    private static let lookBehind = 96

    /// A filter that hands what it writes to `emit` (false stops the file).
    package init(emit: @escaping (UnsafeRawBufferPointer) -> Bool) { self.emit = emit }

    /// Writes buffer bytes up to `end` as they are.
    private func pass(to end: Int) -> Bool {
        guard end > emitted else { return true }
        let sent = buffer[emitted..<end].withUnsafeBytes { emit($0) }
        emitted = end
        return sent
    }

    /// Takes the next bytes Cairo wrote; false when `emit` refused bytes.
    package func take(_ chunk: UnsafeRawBufferPointer) -> Bool {
        buffer.append(contentsOf: chunk)
        guard step() else { return false }
        // Keep only what is undecided and a few bytes before it.
        let keep: Int
        switch state {
        case .passing: keep = emitted
        case .capturing(_, _, _, let data): keep = data
        case .holding(let from): keep = from
        }
        let drop = max(0, min(keep, emitted) - Self.lookBehind)
        if drop > 1 << 16 {
            buffer.removeFirst(drop)
            base += drop
            emitted -= drop
            scanned -= drop
            switch state {
            case .passing: break
            case let .capturing(object, length, objectOffset, data): state = .capturing(object: object, length: length, objectOffset: objectOffset, data: data - drop)
            case .holding(let from): state = .holding(from: from - drop)
            }
        }
        return true
    }

    /// Goes through the buffer as far as it can.
    private func step() -> Bool {
        while true {
            switch state {
            case .passing:
                // The earliest mark ending past what was searched (the table only before the
                // next stream: it is searched once, not once a stream).
                let stream = PDFBytes.find(Self.streamMark, in: buffer, from: max(0, scanned - Self.streamMark.count + 1))
                let xref = PDFBytes.find(Self.xrefMark, in: buffer, from: max(0, scanned - Self.xrefMark.count + 1),
                                         upTo: stream.map { $0 + Self.streamMark.count })
                let hit = [stream.map { ($0, true) }, xref.map { ($0, false) }].compactMap { $0 }.min { $0.0 < $1.0 }
                guard let (at, isStream) = hit else {
                    scanned = buffer.count
                    return pass(to: buffer.count)
                }
                let end = at + (isStream ? Self.streamMark.count : Self.xrefMark.count)
                guard pass(to: end) else { return false }
                scanned = end
                if !isStream {
                    state = .holding(from: end)
                } else if let numbers = Self.header(buffer, before: at) {
                    state = .capturing(object: numbers.object, length: numbers.length, objectOffset: base + numbers.start, data: end)
                }
            case let .capturing(object, length, objectOffset, data):
                switch capture(object, length, objectOffset, data) {
                case nil: return false
                case true?: continue
                case false?: return true
                }
            case .holding(let from):
                switch PDFXrefTable.read(Array(buffer[from...])) {
                case .incomplete, .complete(_, _, trailing: false): return true
                case .invalid, .complete(_, _, trailing: true):
                    // Not the table: passed on as it is, and searched.
                    state = .passing
                    scanned = from
                }
            }
        }
    }

    /// The object and length numbers of a header whose `" 0 R\n..."` starts at `at`, and where
    /// the header starts: `N 0 obj\n<< /Length M` at a line's start.
    private static func header(_ bytes: [UInt8], before at: Int) -> (object: Int, length: Int, start: Int)? {
        var i = at
        func digits() -> Int? {
            let end = i
            while i > 0, (0x30...0x39).contains(bytes[i - 1]) { i -= 1 }
            return i < end && end - i < 10 ? Int(String(decoding: bytes[i..<end], as: UTF8.self)) : nil
        }
        guard let length = digits() else { return nil }
        let middle = Array(" 0 obj\n<< /Length ".utf8)
        guard i >= middle.count, bytes[(i - middle.count)..<i].elementsEqual(middle) else { return nil }
        i -= middle.count
        guard let object = digits(), i > 0, bytes[i - 1] == 0x0A else { return nil }
        return (object, length, i)
    }

    /// A stream's data from `data` in the buffer: when its end and length object are in,
    /// written (rewritten or not) and true; false while still reading; nil when `emit`
    /// refused bytes.
    private func capture(_ object: Int, _ length: Int, _ objectOffset: Int, _ data: Int) -> Bool? {
        let close = Self.streamEnd + Array("\(length) 0 obj\n".utf8)
        let tail = Array("\nendobj\n".utf8)
        var from = max(data, scanned - close.count - 32)
        while let at = PDFBytes.find(close, in: buffer, from: from) {
            var i = at + close.count
            while i < buffer.count, buffer[i] == 0x20 { i += 1 }
            let digitsStart = i
            while i < buffer.count, (0x30...0x39).contains(buffer[i]) { i += 1 }
            guard i + tail.count <= buffer.count else { break }  // the length object is not all in yet
            if i > digitsStart, i - digitsStart < 12, buffer[i..<(i + tail.count)].elementsEqual(tail),
               Int(String(decoding: buffer[digitsStart..<i], as: UTF8.self)) == at - data {
                let end = i + tail.count
                guard finish(object, length, objectOffset, data: data, dataEnd: at, end: end) else { return nil }
                state = .passing
                scanned = end
                return true
            }
            from = at + 1
        }
        scanned = buffer.count
        guard buffer.count - data > Self.streamLimit else { return false }
        // Too long to be a page's content: passed on as it is and searched, and the file
        // fails at its end (a page would go without its Artifacts).
        state = .passing
        scanned = data
        unmarked = true
        return true
    }

    /// Writes a whole stream's data (buffer `data..<dataEnd`) and what follows to the end of
    /// its length object (`end`): rewritten when it is a page's content with something to
    /// mark, else as it was.
    private func finish(_ object: Int, _ length: Int, _ objectOffset: Int, data: Int, dataEnd: Int, end: Int) -> Bool {
        let count = dataEnd - data
        // A stream Cairo stored (its first block's type is 00) is compressed here even when it
        // has nothing to mark.
        let stored = count > 2 && (buffer[data + 2] >> 1) & 3 == 0
        guard let content = Self.inflate(buffer[data..<dataEnd]), let marked = PDFArtifacts.marked(content) ?? (stored ? content : nil),
              let packed = Self.deflate(marked) else {
            return pass(to: end)
        }
        let rewritten = packed + Self.streamEnd + Array("\(length) 0 obj\n   \(packed.count)\nendobj\n".utf8)
        let shift = rewritten.count - (end - data)
        let dataOffset = base + data
        edits.append(Edit(object: object, objectOffset: objectOffset, length: length,
                          lengthOffset: dataOffset + count + Self.streamEnd.count,
                          newLengthOffset: dataOffset + totalShift + packed.count + Self.streamEnd.count,
                          end: base + end, shift: shift))
        totalShift += shift
        emitted = end
        return rewritten.withUnsafeBytes { emit($0) }
    }

    /// Ends the file: the held table rewritten with the objects' new offsets. Throws when a
    /// stream was rewritten but the table does not put it where it was read.
    package func finish() throws -> Bool {
        let state = self.state
        self.state = .passing
        guard case .holding(let from) = state,
              case .complete(var table, let startxref, trailing: false) = PDFXrefTable.read(Array(buffer[from...])) else {
            // No table at the end, or a stream never closed: the bytes go as they are, which
            // is right only when nothing was rewritten and no stream went unread.
            guard pass(to: buffer.count) else { return false }
            if case .capturing = state { return try failed() }
            return edits.isEmpty && !unmarked ? true : try failed()
        }
        guard !unmarked else { return try failed() }
        for edit in edits {
            guard table.offset(of: edit.object) == edit.objectOffset, table.offset(of: edit.length) == edit.lengthOffset else { return try failed() }
        }
        guard startxref.value == base + from - "xref\n".utf8.count else { return try failed() }
        // An object moves by the shifts of the rewrites that ended before it.
        let lengths = Dictionary(edits.map { ($0.length, $0.newLengthOffset) }, uniquingKeysWith: { a, _ in a })
        let ends = edits.map(\.end)
        var shifts = [0]
        for edit in edits { shifts.append(shifts.last! + edit.shift) }
        table.moveOffsets { number, old in
            if let moved = lengths[number] { return moved }
            var low = 0, high = ends.count
            while low < high {
                let middle = (low + high) / 2
                if ends[middle] <= old { low = middle + 1 } else { high = middle }
            }
            return old + shifts[low]
        }
        var out = table.bytes
        out.replaceSubrange(startxref.range, with: Array(String(startxref.value + totalShift).utf8))
        emitted = buffer.count
        return out.withUnsafeBytes { emit($0) }
    }

    private func failed() throws -> Bool {
        throw PDFWriteError("writing PDF: a page's content could not be marked as tagged (a stream over 64 MB, or not where the file's table puts it)")
    }

    static func inflate(_ data: ArraySlice<UInt8>) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        guard data.withUnsafeBufferPointer({ hl_zlib_inflate($0.baseAddress, $0.count, streamLimit, &out, &count) }) == 0, let out else { return nil }
        defer { hl_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    static func deflate(_ data: [UInt8]) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        guard data.withUnsafeBufferPointer({ hl_zlib_deflate($0.baseAddress, $0.count, 6, &out, &count) }) == 0, let out else { return nil }
        defer { hl_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }
}

/// A PDF hlrender cannot finish (its message says why, in the words a render error uses).
package struct PDFWriteError: Error, CustomStringConvertible {
    package let description: String
    init(_ message: String) { description = message }
}
