import Codecs
import Support

/// What an image shows, written into the image file itself where readers look for it: PNG
/// `iTXt` Description and an XMP packet, JPEG EXIF ImageDescription and XMP, WebP and AVIF
/// XMP (`dc:description`, the field `og:image:alt` tooling and screen-reader aware viewers
/// read). Byte-level insertion into an encoded file: the pixels are not touched.
package enum ImageDescription {
    /// Descriptions are cut to this many characters (a card's text can be a whole article).
    package static let maxCharacters = 2000

    /// The one guard between a description (a card's text, `--alt`, a request's `alt`) and the
    /// files and headers it goes into: control characters other than line feed and tab dropped
    /// (a NUL would end a PNG text field early, a CR split a header), cut at a character
    /// boundary to `maxCharacters` with an ellipsis.
    package static func bounded(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where scalar == "\n" || scalar == "\t" || !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) {
            kept.append(scalar)
        }
        let clean = String(kept)
        guard clean.count > maxCharacters else { return clean }
        return String(clean.prefix(maxCharacters - 1)) + "…"
    }

    /// `bytes` with `inserted` put in at `at`, in one allocation (an encoded image can be large).
    private static func splice(_ bytes: [UInt8], at: Int, _ inserted: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + inserted.count)
        out += bytes[..<at]
        out += inserted
        out += bytes[at...]
        return out
    }

    /// The XMP packet carrying `text` as `dc:description` (XML 1.0 escaped).
    static func xmp(_ text: String) -> [UInt8] {
        Array(("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:description><rdf:Alt>"
            + "<rdf:li xml:lang=\"x-default\">\(text.xml10Escaped)</rdf:li></rdf:Alt></dc:description></rdf:Description>"
            + "</rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>").utf8)
    }

    /// `bytes` (an encoded image of `format`) with `text` written into it; unchanged when the
    /// text is empty or the file is not laid out as its encoder writes it.
    static func embed(_ text: String, in bytes: [UInt8], format: RasterFormat) -> [UInt8] {
        guard !text.isEmpty else { return bytes }
        switch format {
        case .png: return png(text, bytes)
        case .jpeg: return jpeg(text, bytes)
        case .webp: return webp(text, bytes)
        case .avif: return bytes  // written by the encoder itself (see `ImageEncoder.avif`)
        }
    }

    /// iTXt chunks after IHDR: `Description` (the PNG keyword) and the XMP packet.
    private static func png(_ text: String, _ bytes: [UInt8]) -> [UInt8] {
        let ihdrEnd = 8 + 8 + 13 + 4
        guard bytes.count > ihdrEnd, bytes[12..<16].elementsEqual("IHDR".utf8) else { return bytes }
        func iTXt(_ keyword: String, _ value: [UInt8]) -> [UInt8] {
            // keyword, 0, compression flag 0, method 0, empty language, 0, empty translation, 0, text
            PNGChunks.make("iTXt", Array(keyword.utf8) + [0, 0, 0, 0, 0] + value)
        }
        return splice(bytes, at: ihdrEnd, iTXt("Description", Array(text.utf8)) + iTXt("XML:com.adobe.xmp", xmp(text)))
    }

    /// APP1 segments after SOI (and JFIF's APP0): EXIF with ImageDescription where the text is
    /// ASCII (EXIF's type for it), and XMP always.
    private static func jpeg(_ text: String, _ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return bytes }
        var at = 2
        if bytes[2] == 0xFF, bytes[3] == 0xE0, bytes.count > 6 { at = 4 + Int(bytes[4]) << 8 + Int(bytes[5]) }
        guard at <= bytes.count else { return bytes }
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            guard payload.count + 2 <= 0xFFFF else { return [] }
            return [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        var inserted: [UInt8] = []
        if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F || $0 == "\n" }) {
            // TIFF, little-endian: IFD0 with one entry, ImageDescription (270), ASCII.
            let ascii = Array(text.utf8) + [0]
            var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0]
            tiff += littleEndian16(270) + littleEndian16(2) + littleEndian32(UInt32(ascii.count))
            tiff += ascii.count <= 4 ? ascii + [UInt8](repeating: 0, count: 4 - ascii.count) : littleEndian32(26)
            tiff += [0, 0, 0, 0]
            if ascii.count > 4 { tiff += ascii }
            inserted += segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
        }
        inserted += segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp(text))
        return splice(bytes, at: at, inserted)
    }

    /// The extended format (VP8X) with an `XMP ` chunk, as the WebP container spec lays it out;
    /// the image chunks are copied once, into the new file.
    private static func webp(_ text: String, _ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > 30, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return bytes }
        let first = String(decoding: bytes[12..<16], as: UTF8.self)
        var header: [UInt8] = []  // a VP8X chunk to put before a simple file's one image chunk
        if first != "VP8X" {
            // Canvas size and alpha from the one image chunk (its payload starts at 20).
            var width = 0, height = 0, alpha = false
            if first == "VP8 " {
                width = (Int(bytes[26]) | Int(bytes[27]) << 8) & 0x3FFF
                height = (Int(bytes[28]) | Int(bytes[29]) << 8) & 0x3FFF
            } else if first == "VP8L" {
                let bits = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
                width = Int(bits & 0x3FFF) + 1
                height = Int(bits >> 14 & 0x3FFF) + 1
                alpha = bits >> 28 & 1 == 1
            } else {
                return bytes
            }
            guard width > 0, height > 0 else { return bytes }
            header = Array("VP8X".utf8) + littleEndian32(10) + [0x04 | (alpha ? 0x10 : 0), 0, 0, 0]
                + littleEndian24(width - 1) + littleEndian24(height - 1)
        }
        let packet = xmp(text)
        let trailer = Array("XMP ".utf8) + littleEndian32(UInt32(packet.count)) + packet + (packet.count % 2 == 1 ? [0] : [])
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + header.count + trailer.count)
        out += Array("RIFF".utf8) + littleEndian32(UInt32(bytes.count - 8 + header.count + trailer.count)) + Array("WEBP".utf8)
        out += header
        let chunks = out.count
        out += bytes[12...]
        if header.isEmpty { out[chunks + 8] |= 0x04 }  // the existing VP8X's XMP flag
        out += trailer
        return out
    }

    private static func littleEndian32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
    private static func littleEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func littleEndian24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
}
