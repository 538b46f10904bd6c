/// One ISOBMFF box (ISO/IEC 14496-12) of a file: its four-letter type and where it lies.
struct Box {
    /// The four-letter type.
    let type: String
    /// The whole box, header included.
    let range: Range<Int>
    /// Header length: 8, or 16 with a 64-bit size.
    let headerLength: Int

    /// What follows the header.
    var body: Range<Int> { (range.lowerBound + headerLength)..<range.upperBound }

    /// The boxes that fill `span` of `file`, in order; throws when one runs past its parent.
    static func children(of file: [UInt8], in span: Range<Int>) throws -> [Box] {
        var at = span.lowerBound, out: [Box] = []
        while at < span.upperBound {
            guard span.upperBound - at >= 8 else { throw AVIFPlayCount.Malformed(description: "a box header cut short at byte \(at)") }
            var size = Int(BigEndian.read(file, at, count: 4)), header = 8
            if size == 1 {
                guard span.upperBound - at >= 16 else { throw AVIFPlayCount.Malformed(description: "a box header cut short at byte \(at)") }
                let large = BigEndian.read(file, at + 8, count: 8)
                guard large <= UInt64(Int.max) else { throw AVIFPlayCount.Malformed(description: "a box too large at byte \(at)") }
                (size, header) = (Int(large), 16)
            } else if size == 0 {
                size = span.upperBound - at  // "to the end of its parent"
            }
            guard size >= header, size <= span.upperBound - at else {
                throw AVIFPlayCount.Malformed(description: "a box running past its parent at byte \(at)")
            }
            let type = String(decoding: file[(at + 4)..<(at + 8)], as: UTF8.self)
            out.append(Box(type: type, range: at..<(at + size), headerLength: header))
            at += size
        }
        return out
    }

    /// Makes `box`'s size field say `delta` bytes more.
    static func grow(_ box: Box, by delta: Int, in file: inout [UInt8]) throws {
        let size = UInt64(box.range.count + delta)
        if box.headerLength == 16 {
            file.replaceSubrange((box.range.lowerBound + 8)..<(box.range.lowerBound + 16), with: BigEndian.bytes(size, count: 8))
        } else {
            guard size <= UInt64(UInt32.max) else { throw AVIFPlayCount.Malformed(description: "a \(box.type) past 4 GB") }
            file.replaceSubrange(box.range.lowerBound..<(box.range.lowerBound + 4), with: BigEndian.bytes(size, count: 4))
        }
    }
}

/// The item location box (`iloc`, ISO/IEC 14496-12 8.11.3): where each item's bytes are.
enum ItemLocations {
    /// Adds `delta` to every location in this file (construction method 0, data reference 0)
    /// that points past `moov`: to the item's base offset when that is past `moov`, else to
    /// each extent offset that lands past it.
    static func shift(in file: inout [UInt8], box: Box, pastMoov: Int, by delta: Int) throws {
        var reader = Reader(end: box.body.upperBound, at: box.body.lowerBound)
        let version = try reader.number(file, 1)
        _ = try reader.number(file, 3)
        let sizes = try reader.number(file, 1), more = try reader.number(file, 1)
        let (offsetSize, lengthSize, baseSize) = (Int(sizes >> 4), Int(sizes & 15), Int(more >> 4))
        let indexSize = version == 1 || version == 2 ? Int(more & 15) : 0
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
            throw AVIFPlayCount.Malformed(description: "an iloc field of \(size) bytes")
        }
        guard version <= 2 else { throw AVIFPlayCount.Malformed(description: "an iloc of version \(version)") }
        let items = try reader.number(file, version < 2 ? 2 : 4)
        for _ in 0..<items {
            _ = try reader.number(file, version < 2 ? 2 : 4)
            let method = version == 1 || version == 2 ? try reader.number(file, 2) & 15 : 0
            let reference = try reader.number(file, 2)
            let baseAt = reader.at
            let base = try reader.number(file, baseSize)
            let inFile = method == 0 && reference == 0
            if inFile, baseSize > 0, base >= UInt64(pastMoov) {
                try AVIFPlayCount.shift(&file, at: baseAt, width: baseSize, pastMoov: pastMoov, by: delta)
            }
            let extents = try reader.number(file, 2)
            for _ in 0..<extents {
                _ = try reader.number(file, indexSize)
                let offsetAt = reader.at
                let offset = try reader.number(file, offsetSize)
                _ = try reader.number(file, lengthSize)
                let (at, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { throw AVIFPlayCount.Malformed(description: "an iloc extent past 2^64") }
                if inFile, offsetSize > 0, base < UInt64(pastMoov), at >= UInt64(pastMoov) {
                    try AVIFPlayCount.shift(&file, at: offsetAt, width: offsetSize, pastMoov: 0, by: delta)
                }
            }
        }
    }

    /// Reads big-endian numbers in order, never past the box.
    private struct Reader {
        let end: Int
        var at: Int

        mutating func number(_ file: [UInt8], _ bytes: Int) throws -> UInt64 {
            guard end - at >= bytes else { throw AVIFPlayCount.Malformed(description: "an iloc cut short") }
            defer { at += bytes }
            return BigEndian.read(file, at, count: bytes)
        }
    }
}
