import CFreeType

/// WOFF and WOFF2 files (web fonts, as most brands ship theirs) made plain OpenType once, when
/// the file is mapped: HarfBuzz reads only plain OpenType, FreeType decodes both (WOFF2 through
/// Brotli). FreeType's decoded tables are written back as an sfnt file, so shaping, drawing and
/// the damage check all read the same bytes as for a TTF.
enum WebFont {
    /// The largest decoded font taken: FreeType itself refuses WOFF2 past 30 MB; WOFF is
    /// bounded here the same way, so a small file cannot unpack to gigabytes.
    static let maxBytes = 30 << 20

    /// Whether the bytes are a WOFF ('wOFF') or WOFF2 ('wOF2') file.
    static func isWebFont(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        let tag = bytes.prefix(4)
        return tag.elementsEqual("wOFF".utf8) || tag.elementsEqual("wOF2".utf8)
    }

    /// The plain OpenType font inside `bytes` (which `isWebFont`), or an error naming `file`.
    /// A private FreeType library per call: nothing shared, any thread may call it.
    static func sfnt(_ bytes: UnsafeRawBufferPointer, file: String) throws -> [UInt8] {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw TypesetError.notAFont(file) }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Memory_Face(library, bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes.count), 0, &face) == 0,
              let face else {
            throw TypesetError.damagedFont(file, "FreeType cannot decode this WOFF/WOFF2 file")
        }
        defer { FT_Done_Face(face) }
        guard face.pointee.num_faces == 1 else {
            throw TypesetError.damagedFont(file, "a WOFF2 collection of \(face.pointee.num_faces) fonts; give one font per file")
        }
        var count: FT_ULong = 0
        guard FT_Sfnt_Table_Info(face, 0, nil, &count) == 0, count > 0, count < 1024 else {
            throw TypesetError.damagedFont(file, "no OpenType tables in it")
        }
        var tables: [(tag: UInt32, data: [UInt8])] = []
        var total = 12 + 16 * Int(count)
        for index in 0..<count {
            var tag: FT_ULong = 0, length: FT_ULong = 0
            guard FT_Sfnt_Table_Info(face, FT_UInt(index), &tag, &length) == 0 else { continue }
            total += (Int(length) + 3) & ~3
            guard total <= maxBytes else { throw TypesetError.damagedFont(file, "it unpacks to over \(maxBytes >> 20) MB") }
            var data = [UInt8](repeating: 0, count: Int(length))
            if length > 0 {
                var read = length
                guard FT_Load_Sfnt_Table(face, tag, 0, &data, &read) == 0, read == length else {
                    throw TypesetError.damagedFont(file, "table \(tagName(UInt32(tag))) cannot be decoded")
                }
            }
            tables.append((UInt32(tag), data))
        }
        // The flavour the file was made from (TrueType outlines, or 'OTTO' for CFF).
        let flavour = (4..<8).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[$1]) }
        return assemble(flavour: flavour, tables: tables)
    }

    /// An sfnt file: header, table records sorted by tag, tables on 4-byte boundaries, each
    /// record's checksum and head's checkSumAdjustment as the OpenType spec defines them.
    static func assemble(flavour: UInt32, tables unsorted: [(tag: UInt32, data: [UInt8])]) -> [UInt8] {
        let tables = unsorted.sorted { $0.tag < $1.tag }
        var out = [UInt8]()
        func u16(_ v: Int) { out += [UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func u32(_ v: UInt32) { out += [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        let n = tables.count
        var power = 1, log2 = 0
        while power * 2 <= n { power *= 2; log2 += 1 }
        u32(flavour)
        u16(n); u16(power * 16); u16(log2); u16(n * 16 - power * 16)
        var offset = 12 + 16 * n
        var headOffset: Int?
        for table in tables {
            var data = table.data
            if table.tag == 0x6865_6164, data.count >= 12 {  // 'head': its adjustment counts as 0 here
                data.replaceSubrange(8..<12, with: [0, 0, 0, 0])
                headOffset = offset
            }
            u32(table.tag); u32(checksum(data)); u32(UInt32(offset)); u32(UInt32(table.data.count))
            offset += (table.data.count + 3) & ~3
        }
        for table in tables {
            out += table.data
            if table.tag == 0x6865_6164, table.data.count >= 12 { out.replaceSubrange((out.count - table.data.count + 8)..<(out.count - table.data.count + 12), with: [0, 0, 0, 0]) }
            out += [UInt8](repeating: 0, count: ((table.data.count + 3) & ~3) - table.data.count)
        }
        if let headOffset {
            let adjustment = 0xB1B0_AFBA &- checksum(out)
            out.replaceSubrange((headOffset + 8)..<(headOffset + 12),
                                with: [UInt8(adjustment >> 24), UInt8(adjustment >> 16 & 255), UInt8(adjustment >> 8 & 255), UInt8(adjustment & 255)])
        }
        return out
    }

    /// The sum of big-endian 32-bit words, the last one padded with zeros.
    static func checksum(_ data: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0, i = 0
        while i < data.count {
            var word: UInt32 = 0
            for k in 0..<4 { word = word << 8 | UInt32(i + k < data.count ? data[i + k] : 0) }
            sum &+= word
            i += 4
        }
        return sum
    }

    static func tagName(_ tag: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: tag >> (24 - 8 * $0)) }, as: UTF8.self)
    }
}
