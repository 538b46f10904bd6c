import CFreeType
import Glibc
import Support

/// WOFF and WOFF2 files (web fonts, as most brands ship theirs) made plain OpenType once, when
/// the file is mapped: HarfBuzz reads only plain OpenType, FreeType decodes both (WOFF2 through
/// Brotli). FreeType's decoded tables are written back as an sfnt file, so shaping, drawing and
/// the damage check all read the same bytes as for a TTF.
package enum WebFont {
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
        if let why = refusal(bytes) { throw TypesetError.damagedFont(file, why) }
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

    /// Why the sizes a WOFF or WOFF2 header declares are refused, read before FreeType opens
    /// it: FreeType inflates a whole WOFF 1.0 file at open, to the sizes the file declares (a
    /// 1 MB file of zlib'd zeros declared as 1 GB cost 1 GB and 8 s). The decoded size
    /// (`totalSfntSize`) must be within `maxBytes`, the stated length the file's; for WOFF 1.0
    /// each table must lie inside the file, inflate to no less than it holds, and the tables
    /// together fit the declared total. Since zlib inflates a table to exactly its declared
    /// length, the work FreeType does is bounded by these numbers.
    static func refusal(_ bytes: UnsafeRawBufferPointer, fileSize: Int? = nil) -> String? {
        let fileSize = fileSize ?? bytes.count
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        let headerSize = bytes.prefix(4).elementsEqual("wOFF".utf8) ? 44 : 48
        guard bytes.count >= headerSize else { return "its header is cut short" }
        guard u32(8) == fileSize else { return "its header says \(u32(8)) bytes, the file has \(fileSize)" }
        let total = u32(16), tables = u16(12)
        guard total <= maxBytes else { return "it declares \(total >> 20) MB unpacked, over the \(maxBytes >> 20) MB a font may have" }
        guard tables > 0, tables < 1024 else { return "it declares \(tables) tables" }
        guard headerSize == 44 else { return nil }  // WOFF2: FreeType bounds its Brotli output by this total itself.
        guard headerSize + 20 * tables <= bytes.count else { return "its table directory runs past the end" }
        var unpacked = 12 + 16 * tables
        for i in 0..<tables {
            let entry = headerSize + 20 * i
            let offset = u32(entry + 4), compressed = u32(entry + 8), original = u32(entry + 12)
            guard offset <= fileSize, compressed <= fileSize - offset else { return "table \(i) lies outside the file" }
            guard compressed <= original else { return "table \(i) is larger packed than unpacked" }
            unpacked += (original + 3) & ~3
            guard unpacked <= total else { return "its tables unpack to more than the \(total) bytes it declares" }
        }
        return nil
    }

    /// Whether the file at `path` starts as a WOFF or WOFF2 file does.
    static func isWebFont(file path: String) -> Bool {
        guard let fd = try? Posix.openRegular(path, as: "font file") else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4)
        let read = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 4) }
        return read == 4 && head.withUnsafeBytes { isWebFont($0) }
    }

    /// `refusal` for a font file by name, read before FreeType or Fontconfig opens it (both
    /// inflate a WOFF file whole when they open it): its header and table directory, at most
    /// 20,524 bytes. Nil for a file that is not a web font, or one whose sizes are sound.
    static func refusal(file path: String) -> String? {
        guard let fd = try? Posix.openRegular(path, as: "font file") else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        var head = [UInt8](repeating: 0, count: min(Int(status.st_size), 44 + 20 * 1024))
        let read = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard read == head.count else { return nil }
        return head.withUnsafeBytes { isWebFont($0) ? refusal($0, fileSize: Int(status.st_size)) : nil }
    }

    /// An sfnt file: header, table records sorted by tag, tables on 4-byte boundaries, each
    /// record's checksum and head's checkSumAdjustment as the OpenType spec defines them.
    package static func assemble(flavour: UInt32, tables unsorted: [(tag: UInt32, data: [UInt8])]) -> [UInt8] {
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

/// The web-font question a decoder worker answers (FreeType's WOFF and WOFF2 decoders are
/// third-party code reading a file a request names): `font`, the file's bytes, and `name`
/// for messages, in; the plain OpenType bytes out. The same function answers in process.
package enum WebFontTasks {
    package static let sfnt = "webfont-sfnt"

    /// Memory decoding may take: the file, FreeType's decoded font and the assembled copy (each
    /// at most `WebFont.maxBytes`), and FreeType's own.
    static func memoryBytes(_ count: Int) -> Int { count + 2 * WebFont.maxBytes + (32 << 20) }

    /// The plain OpenType font inside `font`.
    package static func sfnt(_ fields: Fields) throws -> [UInt8] {
        guard let bytes = fields["font"] else { throw IsolationError(.refused, "the call has no font") }
        return try bytes.withUnsafeBytes { try WebFont.sfnt($0, file: fields.text("name") ?? "font") }
    }

    /// The plain OpenType font inside `bytes` (a web font's, checked by `WebFont.refusal`
    /// first, here), decoded where `isolation` says.
    static func sfnt(_ bytes: UnsafeRawBufferPointer, file: String, isolation: Isolation) throws -> [UInt8] {
        guard isolation.isolates else { return try WebFont.sfnt(bytes, file: file) }
        if let why = WebFont.refusal(bytes) { throw TypesetError.damagedFont(file, why) }
        let call = Isolation.Call(task: sfnt, fields: Fields([("font", Array(bytes)), ("name", Array(file.utf8))]),
                                  memoryBytes: memoryBytes(bytes.count))
        do {
            return try isolation.perform(call, cancellation: nil) { try sfnt($0) }
        } catch let error as IsolationError {
            throw TypesetError.damagedFont(file, error.description)
        }
    }
}
