/// Laid-out lines as bytes and back, exactly (every Double by its bits): a long text's pages
/// keep their lines in a temporary file between measuring and drawing instead of laying the
/// text out twice. The bytes are this process's own (never read from elsewhere), so the format
/// has no version; a short or malformed buffer still throws rather than traps.
///
/// Most of a line is its glyphs, so a glyph is a flag byte and only what cannot be derived:
/// its x when it is not the glyph before's x plus advance, its y when it is not the run's, its
/// advance when it differs from the glyph before's (in 4 bytes when a Float holds it exactly,
/// as HarfBuzz's 1/64 px steps do), its id in 2 bytes when it fits, and its cluster as a small
/// step from the glyph before's. About 12 bytes a glyph with the lines' text and boxes, instead of 40.
package enum LineCodec {
    package struct Malformed: Error {}

    package static func encode(_ lines: [Line]) -> [UInt8] {
        var w = Writer()
        // About what a line and a glyph take: one allocation for the chunk, not a doubling.
        w.bytes.reserveCapacity(lines.reduce(16) { total, line in
            total + 160 + line.text.utf8.count + line.runs.reduce(0) { $0 + 96 + 8 * $1.glyphs.count }
        })
        w.varint(lines.count)
        for line in lines {
            w.varint(line.start)
            w.varint(line.end)
            w.string(line.text)
            // One value at a time: an array literal here was an allocation a line (and a run).
            w.double(line.x)
            w.double(line.top)
            w.double(line.width)
            w.double(line.height)
            w.double(line.baseline)
            w.byte((line.rtl ? 1 : 0) | (line.hyphen ? 2 : 0))
            w.varint(line.paragraph)
            w.varint(line.fonts.count)
            for family in line.fonts { w.string(family) }
            w.varint(line.runs.count)
            for run in line.runs { encode(run, to: &w) }
        }
        return w.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws(Malformed) -> [Line] {
        var r = Reader(bytes: bytes)
        let count = try r.count()
        var lines: [Line] = []
        lines.reserveCapacity(count)
        for _ in 0..<count {
            let start = try r.varint(), end = try r.varint(), text = try r.string()
            let (x, top, width, height, baseline) = (try r.double(), try r.double(), try r.double(), try r.double(), try r.double())
            let flags = try r.byte()
            let paragraph = try r.varint()
            var fonts: [String] = []
            for _ in 0..<(try r.count()) { fonts.append(try r.string()) }
            var runs: [GlyphRun] = []
            for _ in 0..<(try r.count()) { runs.append(try decodeRun(&r)) }
            lines.append(Line(start: start, end: end, text: text, x: x, top: top, width: width, height: height, baseline: baseline,
                              rtl: flags & 1 != 0, paragraph: paragraph, runs: runs, fonts: fonts, hyphen: flags & 2 != 0))
        }
        guard r.atEnd else { throw Malformed() }
        return lines
    }

    // Glyph flags.
    private static let xFollows: UInt8 = 1, yIsRuns: UInt8 = 2, sameAdvance: UInt8 = 4, shortID: UInt8 = 8, smallStep: UInt8 = 16,
                       floatX: UInt8 = 32, floatAdvance: UInt8 = 64

    /// Whether a Float holds `value` exactly (it then travels in 4 bytes).
    private static func fitsFloat(_ value: Double) -> Bool { Double(Float(value)).bitPattern == value.bitPattern }

    private static func encode(_ run: GlyphRun, to w: inout Writer) {
        w.varint(run.font)
        let m = run.metrics
        w.double(m.size)
        w.double(m.ascent)
        w.double(m.descent)
        w.double(m.rise)
        w.double(m.underlinePosition)
        w.double(m.underlineThickness)
        w.double(m.strikeoutPosition)
        w.double(m.strikeoutThickness)
        w.byte((m.oblique ? 1 : 0) | (run.rtl ? 2 : 0))
        w.byte(run.level)
        w.varint(run.start)
        w.varint(run.end)
        w.varint(run.glyphs.count)
        let y = run.glyphs.first?.y ?? 0
        w.double(y)
        var previous: Glyph?
        for glyph in run.glyphs {
            var flags: UInt8 = 0
            if let p = previous, (p.x + p.advance).bitPattern == glyph.x.bitPattern { flags |= xFollows }
            if glyph.y.bitPattern == y.bitPattern { flags |= yIsRuns }
            if let p = previous, p.advance.bitPattern == glyph.advance.bitPattern { flags |= sameAdvance }
            if glyph.id <= 0xFFFF { flags |= shortID }
            let step = glyph.cluster - (previous?.cluster ?? run.start)
            if step >= -128, step <= 127 { flags |= smallStep }
            if flags & xFollows == 0, fitsFloat(glyph.x) { flags |= floatX }
            if flags & sameAdvance == 0, fitsFloat(glyph.advance) { flags |= floatAdvance }
            w.byte(flags)
            if flags & xFollows == 0 { if flags & floatX != 0 { w.float(glyph.x) } else { w.double(glyph.x) } }
            if flags & yIsRuns == 0 { w.double(glyph.y) }
            if flags & sameAdvance == 0 { if flags & floatAdvance != 0 { w.float(glyph.advance) } else { w.double(glyph.advance) } }
            if flags & shortID != 0 { w.uint16(UInt16(glyph.id)) } else { w.uint32(glyph.id) }
            if flags & smallStep != 0 { w.byte(UInt8(bitPattern: Int8(step))) } else { w.varint(glyph.cluster) }
            previous = glyph
        }
    }

    private static func decodeRun(_ r: inout Reader) throws(Malformed) -> GlyphRun {
        let font = try r.varint()
        var m = RunMetrics(size: try r.double(), ascent: try r.double(), descent: try r.double(), underlinePosition: 0,
                           underlineThickness: 0, strikeoutPosition: 0, strikeoutThickness: 0)
        m.rise = try r.double()
        (m.underlinePosition, m.underlineThickness) = (try r.double(), try r.double())
        (m.strikeoutPosition, m.strikeoutThickness) = (try r.double(), try r.double())
        let flags = try r.byte()
        m.oblique = flags & 1 != 0
        let level = try r.byte()
        let start = try r.varint(), end = try r.varint(), count = try r.count()
        let y = try r.double()
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(count)
        var previous: Glyph?
        for _ in 0..<count {
            let f = try r.byte()
            guard f & xFollows == 0 || previous != nil, f & sameAdvance == 0 || previous != nil else { throw Malformed() }
            let x = f & xFollows != 0 ? previous!.x + previous!.advance : f & floatX != 0 ? try r.float() : try r.double()
            let gy = f & yIsRuns != 0 ? y : try r.double()
            let advance = f & sameAdvance != 0 ? previous!.advance : f & floatAdvance != 0 ? try r.float() : try r.double()
            let id = f & shortID != 0 ? UInt32(try r.uint16()) : try r.uint32()
            let cluster = f & smallStep != 0 ? (previous?.cluster ?? start) + Int(Int8(bitPattern: try r.byte())) : try r.varint()
            let glyph = Glyph(id: id, x: x, y: gy, advance: advance, cluster: cluster)
            glyphs.append(glyph)
            previous = glyph
        }
        return GlyphRun(font: font, metrics: m, rtl: flags & 2 != 0, start: start, end: end, glyphs: glyphs, level: level)
    }

    private struct Writer {
        var bytes: [UInt8] = []
        mutating func byte(_ b: UInt8) { bytes.append(b) }
        mutating func uint16(_ v: UInt16) { bytes.append(UInt8(v & 0xFF)); bytes.append(UInt8(v >> 8)) }
        mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func double(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func float(_ v: Double) { uint32(Float(v).bitPattern) }
        /// Non-negative integers 7 bits a byte; a negative one (never expected) as its bit pattern.
        mutating func varint(_ value: Int) {
            var v = UInt64(bitPattern: Int64(value))
            while v >= 0x80 {
                bytes.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }
        mutating func string(_ s: String) {
            varint(s.utf8.count)
            bytes.append(contentsOf: s.utf8)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        var atEnd: Bool { at == bytes.count }

        mutating func byte() throws(Malformed) -> UInt8 {
            guard at < bytes.count else { throw Malformed() }
            defer { at += 1 }
            return bytes[at]
        }
        mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws(Malformed) -> T {
            let size = MemoryLayout<T>.size
            guard bytes.count - at >= size else { throw Malformed() }
            var v: T = 0
            for k in 0..<size { v |= T(bytes[at + k]) << (8 * k) }
            at += size
            return v
        }
        mutating func uint16() throws(Malformed) -> UInt16 { try fixed(UInt16.self) }
        mutating func uint32() throws(Malformed) -> UInt32 { try fixed(UInt32.self) }
        mutating func double() throws(Malformed) -> Double { Double(bitPattern: try fixed(UInt64.self)) }
        mutating func float() throws(Malformed) -> Double { Double(Float(bitPattern: try fixed(UInt32.self))) }
        mutating func varint() throws(Malformed) -> Int {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                let b = try byte()
                guard shift < 64 else { throw Malformed() }
                v |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return Int(Int64(bitPattern: v)) }
                shift += 7
            }
        }
        /// A count of things still to read: each takes at least a byte, so no more than are left.
        mutating func count() throws(Malformed) -> Int {
            let n = try varint()
            guard n >= 0, n <= bytes.count - at else { throw Malformed() }
            return n
        }
        mutating func string() throws(Malformed) -> String {
            let n = try count()
            defer { at += n }
            return String(decoding: bytes[at..<at + n], as: UTF8.self)
        }
    }
}
