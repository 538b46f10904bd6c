import Support
import Glibc

/// An ICC v2 display profile for sRGB (IEC 61966-2-1), built from the standard's numbers: the
/// destination profile of a PDF/A OutputIntent. Made here rather than shipped as a file so an
/// installed binary needs no resource beside it, and so its origin is plain: the colorants are
/// the sRGB primaries adapted to D50 (Bradford), as the ICC's own sRGB profiles hold them, the
/// tone curve is the standard's piecewise function sampled at 1,024 points. hlrender's licence
/// covers it (docs/SRGB-PROFILE.md).
enum SRGBProfile {
    /// The profile's bytes (3 KB); the same on every run, so PDFs stay reproducible.
    static let bytes: [UInt8] = build()

    /// What a PDF/A OutputIntent calls the condition (the ICC registry's name for sRGB).
    static let conditionIdentifier = "sRGB IEC61966-2.1"

    private static func build() -> [UInt8] {
        // Tags in order: signature and data. The three curves share one data block.
        let curve = curveData()
        let tags: [(String, [UInt8])] = [
            ("desc", descriptionData("sRGB IEC61966-2.1 (hlrender)")),
            ("cprt", textData("No copyright, use freely")),
            ("wtpt", xyzData(0.9642, 1.0, 0.8249)),
            ("rXYZ", xyzData(0.4360747, 0.2225045, 0.0139322)),
            ("gXYZ", xyzData(0.3850649, 0.7168786, 0.0971045)),
            ("bXYZ", xyzData(0.1430804, 0.0606169, 0.7141733)),
            ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
        ]
        var table: [UInt8] = be32(UInt32(tags.count))
        var data: [UInt8] = []
        let dataStart = 128 + 4 + 12 * tags.count
        var curveOffset: Int?
        for (signature, block) in tags {
            let shared = signature.hasSuffix("TRC") ? curveOffset : nil
            let offset = shared ?? dataStart + data.count
            if shared == nil {
                data += block
                while data.count % 4 != 0 { data.append(0) }
                if signature.hasSuffix("TRC") { curveOffset = offset }
            }
            table += ascii(signature) + be32(UInt32(offset)) + be32(UInt32(block.count))
        }
        let size = dataStart + data.count
        var header = be32(UInt32(size)) + be32(0) + be32(0x0210_0000) + ascii("mntr") + ascii("RGB ") + ascii("XYZ ")
        header += [2026, 1, 1, 0, 0, 0].flatMap { be16(UInt16($0)) }  // a fixed date: reproducible bytes
        header += ascii("acsp") + be32(0) + be32(0) + be32(0) + be32(0) + [UInt8](repeating: 0, count: 8)
        header += be32(0)  // perceptual
        header += xyz(0.9642, 1.0, 0.8249)  // the profile connection space's illuminant, D50
        header += be32(0)
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + table + data
    }

    /// sRGB's transfer function, 1,024 samples as 16-bit fractions.
    private static func curveData() -> [UInt8] {
        let count = 1024
        var out = ascii("curv") + be32(0) + be32(UInt32(count))
        for i in 0..<count {
            let v = Double(i) / Double(count - 1)
            let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            out += be16(UInt16(Checked.clamped(linear * 65535, .toNearestOrAwayFromZero, in: 0...65535)))
        }
        return out
    }

    private static func xyzData(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        ascii("XYZ ") + be32(0) + xyz(x, y, z)
    }

    /// Three s15Fixed16 numbers.
    private static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        [x, y, z].flatMap { be32(UInt32(bitPattern: Int32(Checked.clamped($0 * 65536, .toNearestOrAwayFromZero, in: Int(Int32.min)...Int(Int32.max))))) }
    }

    private static func textData(_ text: String) -> [UInt8] {
        ascii("text") + be32(0) + ascii(text) + [0]
    }

    /// textDescriptionType (ICC v2): the ASCII name, then empty Unicode and ScriptCode names.
    private static func descriptionData(_ text: String) -> [UInt8] {
        ascii("desc") + be32(0) + be32(UInt32(text.utf8.count + 1)) + ascii(text) + [0]
            + be32(0) + be32(0) + be16(0) + [0] + [UInt8](repeating: 0, count: 67)
    }

    private static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    private static func be32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)] }
}
