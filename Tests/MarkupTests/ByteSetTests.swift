import Markup
import Testing

/// The sixteen-at-a-time byte scans against the plain answers, at every offset of a text
/// that mixes ASCII and longer scalars (so chunks start inside scalars and end anywhere).
@Suite struct ByteSetTests {
    @Test func scansFindWhatALoopFinds() {
        let text = "Ünïcode ☺ text <b>with</b> a few & some 🌍\nlines, \"quoted\" and 'so' on; and more text after it > here."
        let set = ByteSet([0x3C, 0x26, 0x0A])
        var source = text
        source.withUTF8 { bytes in
            for start in 0...bytes.count {
                let expected = bytes[start...].firstIndex(where: { $0 == 0x3C || $0 == 0x26 || $0 == 0x0A }) ?? bytes.count
                #expect(set.firstIndex(in: bytes, from: start) == expected, "from \(start)")
            }
            #expect(set.occurs(in: bytes) && !ByteSet([0x7E]).occurs(in: bytes))
            // Scalar counts over every range that starts and ends on a scalar boundary.
            let boundaries = (0...bytes.count).filter { $0 == bytes.count || bytes[$0] & 0xC0 != 0x80 }
            for lower in boundaries {
                for upper in boundaries where upper >= lower {
                    let expected = String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self).unicodeScalars.count
                    #expect(ByteSet.scalarCount(in: bytes, lower..<upper) == expected)
                }
            }
        }
    }
}
