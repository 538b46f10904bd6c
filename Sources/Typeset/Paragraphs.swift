/// Hard breaks: a paragraph ends at LF, CR, CR LF or U+2029 (the separator belongs to no line).
struct Paragraph: Equatable {
    var index: Int
    /// UTF-8 byte range in the input, separator excluded.
    var start: Int
    var end: Int
}

func splitParagraphs(_ utf8: UnsafeBufferPointer<UInt8>) -> [Paragraph] {
    var paragraphs: [Paragraph] = []
    var start = 0
    var i = 0
    func close(at end: Int, next: Int) {
        paragraphs.append(Paragraph(index: paragraphs.count, start: start, end: end))
        start = next
        i = next
    }
    while i < utf8.count {
        switch utf8[i] {
        case 0x0A:
            close(at: i, next: i + 1)
        case 0x0D:
            close(at: i, next: i + 1 < utf8.count && utf8[i + 1] == 0x0A ? i + 2 : i + 1)
        case 0xE2 where i + 2 < utf8.count && utf8[i + 1] == 0x80 && utf8[i + 2] == 0xA9:
            close(at: i, next: i + 3)
        default:
            i += 1
        }
    }
    paragraphs.append(Paragraph(index: paragraphs.count, start: start, end: utf8.count))
    return paragraphs
}
