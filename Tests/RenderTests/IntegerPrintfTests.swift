import CCairoPrintf
import Testing

/// The static Cairo's snprintf (CCairoPrintf) formats its integers itself: every format Cairo
/// passes and their edge cases (widths, zero padding, signs, the extreme values, truncation
/// at every buffer size) give glibc's bytes and length.
@Suite struct IntegerPrintfTests {
    @Test func integersAreFormattedAsGlibcFormatsThem() {
        var first = [CChar](repeating: 0, count: 256)
        let mismatches = hl_integer_printf_self_check(&first, first.count)
        #expect(mismatches == 0, "\(String(decoding: first.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }
}
