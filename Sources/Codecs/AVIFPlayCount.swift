/// An AVIF image sequence's play count, written as libavif 1.x writes and reads it: each track
/// gets an edit list (`edts`/`elst`) of one edit spanning the frames, flagged "repeat" unless
/// the sequence plays once, and the track's duration says how long all plays last (all ones for
/// ever). libavif 0.11 (Debian 12's) writes no edit list, so viewers loop whatever `loop` says;
/// this adds it to the finished file. Inserting boxes into `moov` moves what follows it, so the
/// chunk offsets (`stco`/`co64`) and item locations (`iloc`) that point past `moov` move too.
package enum AVIFPlayCount {
    /// Why a file could not be given its play count (it is not the ISOBMFF our encoder writes).
    package struct Malformed: Error, CustomStringConvertible {
        /// What was wrong, for the error line.
        package let description: String
    }

    /// `file` with an edit list in each track saying it plays `plays` times (0: for ever).
    /// A file without tracks (a still AVIF) or whose tracks already have edit lists comes back
    /// as it was.
    package static func write(plays: Int, into file: [UInt8]) throws -> [UInt8] {
        guard plays >= 0 else { throw Malformed(description: "a negative play count") }
        let top = try Box.children(of: file, in: 0..<file.count)
        guard let moov = top.first(where: { $0.type == "moov" }) else { return file }
        let inMoov = try Box.children(of: file, in: moov.body)
        let tracks = inMoov.filter { $0.type == "trak" }
        guard let mvhd = inMoov.first(where: { $0.type == "mvhd" }), !tracks.isEmpty else { return file }
        var tracksAndHeaders: [(trak: Box, tkhd: Box)] = []
        for trak in tracks {
            let inTrak = try Box.children(of: file, in: trak.body)
            if inTrak.contains(where: { $0.type == "edts" }) { return file }
            guard let tkhd = inTrak.first(where: { $0.type == "tkhd" }) else { throw Malformed(description: "a track without a header") }
            tracksAndHeaders.append((trak, tkhd))
        }

        var out = file
        // One play lasts what libavif wrote as the movie's duration (in the movie's timescale).
        let once = try duration(in: out, header: mvhd, .movie)
        guard once > 0 else { throw Malformed(description: "a sequence of no duration") }
        let total: UInt64
        if plays == 0 {
            total = .max
        } else {
            let (product, overflow) = once.multipliedReportingOverflow(by: UInt64(plays))
            guard !overflow, product != .max else { throw Malformed(description: "a play count too large for the duration") }
            total = product
        }
        try setDuration(total, in: &out, header: mvhd, .movie)
        let edit = editList(segment: once, repeats: plays != 1)
        let moved = edit.count * tracksAndHeaders.count
        let pastMoov = moov.range.upperBound
        try shiftOffsets(in: &out, boxes: top, pastMoov: pastMoov, by: moved)
        for (_, tkhd) in tracksAndHeaders { try setDuration(total, in: &out, header: tkhd, .track) }
        // Grow the sizes first (the offsets in `out` are still the original file's), then insert
        // from the last track back so earlier positions stay valid.
        try Box.grow(moov, by: moved, in: &out)
        for (trak, _) in tracksAndHeaders { try Box.grow(trak, by: edit.count, in: &out) }
        for (_, tkhd) in tracksAndHeaders.reversed() { out.insert(contentsOf: edit, at: tkhd.range.upperBound) }
        return out
    }

    /// An `edts` holding an `elst` (version 1) of one edit: `segment` long, from media time 0,
    /// at rate 1; flag 1 repeats it.
    static func editList(segment: UInt64, repeats: Bool) -> [UInt8] {
        var elst: [UInt8] = [1, 0, 0, repeats ? 1 : 0] + BigEndian.bytes(1, count: 4) + BigEndian.bytes(segment, count: 8) + BigEndian.bytes(0, count: 8)
        elst += BigEndian.bytes(1, count: 2) + BigEndian.bytes(0, count: 2)
        let elstBox = BigEndian.bytes(UInt64(8 + elst.count), count: 4) + Array("elst".utf8) + elst
        return BigEndian.bytes(UInt64(8 + elstBox.count), count: 4) + Array("edts".utf8) + elstBox
    }

    /// Which header holds a duration: the movie's (`mvhd`) or a track's (`tkhd`).
    private enum Header {
        case movie, track

        /// Where the duration starts after version and flags: past the creation and
        /// modification times (64-bit in version 1, 32-bit in version 0) and the movie's
        /// timescale, or the track's id and a reserved word.
        func durationAt(version1: Bool) -> Int {
            switch self {
            case .movie: return version1 ? 20 : 12
            case .track: return version1 ? 24 : 16
            }
        }
    }

    private static func duration(in file: [UInt8], header: Box, _ kind: Header) throws -> UInt64 {
        let (at, width) = try durationField(in: file, header: header, kind)
        return BigEndian.read(file, at, count: width)
    }

    private static func setDuration(_ value: UInt64, in file: inout [UInt8], header: Box, _ kind: Header) throws {
        let (at, width) = try durationField(in: file, header: header, kind)
        var value = value
        if width == 4 {
            // Version 0 says "for ever" with all ones in 32 bits, and holds nothing longer.
            if value == .max { value = UInt64(UInt32.max) }
            guard value <= UInt64(UInt32.max) else { throw Malformed(description: "a duration too long for a version 0 header") }
        }
        file.replaceSubrange(at..<(at + width), with: BigEndian.bytes(value, count: width))
    }

    private static func durationField(in file: [UInt8], header: Box, _ kind: Header) throws -> (Int, Int) {
        let body = header.body
        guard body.count >= 4 else { throw Malformed(description: "a short \(header.type)") }
        let version1 = file[body.lowerBound] == 1
        let at = body.lowerBound + 4 + kind.durationAt(version1: version1)
        let width = version1 ? 8 : 4
        guard at + width <= body.upperBound else { throw Malformed(description: "a short \(header.type)") }
        return (at, width)
    }

    /// Moves every absolute file offset that points past `moov` (chunk offsets, item extents
    /// stored in the file) by `delta`.
    private static func shiftOffsets(in file: inout [UInt8], boxes: [Box], pastMoov: Int, by delta: Int) throws {
        for box in boxes {
            switch box.type {
            case "moov", "trak", "mdia", "minf", "stbl":
                try shiftOffsets(in: &file, boxes: Box.children(of: file, in: box.body), pastMoov: pastMoov, by: delta)
            case "meta":
                guard box.body.count >= 4 else { throw Malformed(description: "a short meta") }
                let inner = (box.body.lowerBound + 4)..<box.body.upperBound
                try shiftOffsets(in: &file, boxes: Box.children(of: file, in: inner), pastMoov: pastMoov, by: delta)
            case "stco", "co64":
                try shiftChunkOffsets(in: &file, box: box, width: box.type == "stco" ? 4 : 8, pastMoov: pastMoov, by: delta)
            case "iloc":
                try ItemLocations.shift(in: &file, box: box, pastMoov: pastMoov, by: delta)
            default:
                continue
            }
        }
    }

    private static func shiftChunkOffsets(in file: inout [UInt8], box: Box, width: Int, pastMoov: Int, by delta: Int) throws {
        let body = box.body
        guard body.count >= 8 else { throw Malformed(description: "a short \(box.type)") }
        let count = Int(BigEndian.read(file, body.lowerBound + 4, count: 4))
        guard count <= (body.count - 8) / width else { throw Malformed(description: "a \(box.type) longer than its box") }
        for index in 0..<count {
            let at = body.lowerBound + 8 + index * width
            try shift(&file, at: at, width: width, pastMoov: pastMoov, by: delta)
        }
    }

    /// Adds `delta` to the `width`-byte offset at `at` when it points past `moov`.
    static func shift(_ file: inout [UInt8], at: Int, width: Int, pastMoov: Int, by delta: Int) throws {
        let old = BigEndian.read(file, at, count: width)
        guard old >= UInt64(pastMoov) else { return }
        let new = old + UInt64(delta)
        guard width == 8 || new <= UInt64(UInt32.max) else { throw Malformed(description: "an offset past 4 GB in a 32-bit field") }
        file.replaceSubrange(at..<(at + width), with: BigEndian.bytes(new, count: width))
    }
}
