import CFreeType
import Glibc
import Typeset

/// The FreeType face Cairo draws a font with reads the font's bytes through this stream, which
/// hides the `cmap` table (its directory tag reads as `hlcm`). Cairo then knows no character of
/// a glyph but the text we give with it: in a PDF the "fi" ligature's ToUnicode is "fi", not
/// the cmap's U+FB01, so Cairo writes no nested ActualText span for it (poppler's structure
/// text stopped at the first one). Glyphs come positioned from HarfBuzz, which reads the real
/// cmap from the same bytes; nothing is copied.
final class TextMappedStream {
    let stream: UnsafeMutablePointer<FT_StreamRec>
    private let blob: FontBlob
    /// Where the `cmap` record's tag is (nil: nothing to hide).
    private let hidden: Int?

    init(blob: FontBlob, index: Int) {
        self.blob = blob
        hidden = SFNTDirectory.recordOffset(blob.bytes, index: index, tag: "cmap")
        stream = .allocate(capacity: 1)
        stream.initialize(to: FT_StreamRec())
        stream.pointee.size = UInt(blob.bytes.count)
        stream.pointee.descriptor.pointer = Unmanaged.passUnretained(self).toOpaque()
        stream.pointee.read = { stream, offset, buffer, count in
            guard let stream, let raw = stream.pointee.descriptor.pointer else { return 0 }
            return Unmanaged<TextMappedStream>.fromOpaque(raw).takeUnretainedValue().read(Int(offset), buffer, Int(count))
        }
    }

    deinit {
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// FreeType's read: `count` 0 is a seek (0 when it is inside the file).
    private func read(_ offset: Int, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int) -> UInt {
        let size = blob.bytes.count
        if count == 0 { return offset <= size ? 0 : 1 }
        guard offset < size, let buffer, let base = blob.bytes.baseAddress else { return 0 }
        let n = min(count, size - offset)
        memcpy(buffer, base + offset, n)
        if let hidden {
            for (i, byte) in "hlcm".utf8.enumerated() where hidden + i >= offset && hidden + i < offset + n {
                buffer[hidden + i - offset] = byte
            }
        }
        return UInt(n)
    }

    /// Face `index` over the stream; the stream must outlive the face (FreeType does not own it).
    func openFace(_ library: FT_Library, index: Int) -> (FT_Face?, FT_Error) {
        var args = FT_Open_Args()
        args.flags = FT_UInt(FT_OPEN_STREAM)
        args.stream = stream
        var face: FT_Face?
        let error = FT_Open_Face(library, &args, FT_Long(index), &face)
        return (face, error)
    }
}
