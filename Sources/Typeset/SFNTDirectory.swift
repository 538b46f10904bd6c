/// The table directory of an OpenType/TrueType file, checked against the file's length.
/// HarfBuzz and FreeType both clamp a table that runs past the end of a truncated file, so its
/// glyphs load as empty and the text renders blank without any error: this finds that first.
package enum SFNTDirectory {
    /// Where face `index`'s directory record of table `tag` ("cmap") starts: the four bytes
    /// of its tag. Nil when the face has no such table (or the directory is cut short).
    package static func recordOffset(_ data: UnsafeRawBufferPointer, index: Int, tag: String) -> Int? {
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= data.count else { return nil }
            return (0..<4).reduce(0) { $0 << 8 | Int(data[at + $1]) }
        }
        let wanted = tag.utf8.reduce(0) { $0 << 8 | Int($1) }
        guard let first = u32(0) else { return nil }
        var start = 0
        if first == 0x7474_6366 {
            guard let offset = u32(12 + 4 * index) else { return nil }
            start = offset
        }
        guard start + 6 <= data.count else { return nil }
        let tables = Int(data[start + 4]) << 8 | Int(data[start + 5])
        for i in 0..<tables {
            let record = start + 12 + 16 * i
            guard let name = u32(record) else { return nil }
            if name == wanted { return record }
        }
        return nil
    }

    /// Why face `index` of `data` is damaged, or nil when every table lies inside the file.
    static func damage(_ data: UnsafeRawBufferPointer, index: Int) -> String? {
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= data.count else { return nil }
            return (0..<4).reduce(0) { $0 << 8 | Int(data[at + $1]) }
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= data.count else { return nil }
            return Int(data[at]) << 8 | Int(data[at + 1])
        }
        guard let tag = u32(0) else { return "the file is shorter than a font header" }
        var start = 0
        if tag == 0x7474_6366 {  // 'ttcf': a collection, offsets to each face's directory at 12
            guard let offset = u32(12 + 4 * index) else { return "the collection header is cut short" }
            start = offset
        }
        guard let tables = u16(start + 4) else { return "the table directory is cut short" }
        for i in 0..<tables {
            let record = start + 12 + 16 * i
            guard let name = u32(record), let offset = u32(record + 8), let length = u32(record + 12) else {
                return "the table directory is cut short (\(data.count) bytes)"
            }
            if offset + length > data.count {
                let text = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: name >> (24 - 8 * $0)) }, as: UTF8.self)
                return "table '\(text)' ends at byte \(offset + length), past the end of the file (\(data.count) bytes); the file may be truncated"
            }
        }
        return nil
    }
}
