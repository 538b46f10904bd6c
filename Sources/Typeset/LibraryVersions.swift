import CFontconfig
import CHarfBuzz
import CTextBreak

/// The versions of the C libraries text layout depends on: a golden recorded with one set may
/// differ under another.
package enum TypesetLibraries {
    package static var versions: [(name: String, version: String)] {
        let fc = Int(FcGetVersion())
        var icu = [CChar](repeating: 0, count: 32)
        hl_icu_version(&icu)
        return [
            ("HarfBuzz", String(cString: hb_version_string())),
            ("Fontconfig", "\(fc / 10000).\(fc / 100 % 100).\(fc % 100)"),
            ("ICU", String(decoding: icu.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)),
        ]
    }
}
