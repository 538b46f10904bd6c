import Foundation
@testable import Render
import Testing
@testable import PDFPost

/// A tagged page's unmarked drawing marked as Artifacts: the content rewrite, and the filter
/// that applies it to a file as it streams (offsets moved, the table checked).
@Suite struct PDFArtifactsTests {
    func marked(_ content: String) -> String? {
        PDFArtifacts.marked(Array(content.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func unmarkedGraphicsObjectsBecomeArtifacts() {
        let page = """
        1 0 0 -1 0 100 cm
        q
        1 1 1 rg /a0 gs
        0 0 100 100 re f
        10 10 m 20 20 l S
        0 0 50 50 re W n
        /P << /MCID 0 >> BDC
        BT (a\\)) Tj ET
        EMC
        /Span << /ActualText <FEFF0066> >> BDC
        BT [(fi)] TJ ET
        EMC
        Q
        /x5 Do

        """
        // Consecutive objects share one Artifact; a clip and state operators stay where they
        // are; q, Q and structure content close it; an ActualText span goes inside one.
        #expect(marked(page) == """
        1 0 0 -1 0 100 cm
        q
        1 1 1 rg /a0 gs
        /Artifact BMC
        0 0 100 100 re f
        10 10 m 20 20 l S
        0 0 50 50 re W n
        EMC
        /P << /MCID 0 >> BDC
        BT (a\\)) Tj ET
        EMC
        /Artifact BMC
        /Span << /ActualText <FEFF0066> >> BDC
        BT [(fi)] TJ ET
        EMC
        EMC
        Q
        /Artifact BMC
        /x5 Do
        EMC

        """)
    }

    @Test func streamsThatAreNotCairoPagesOrNotWholeStayAsTheyAre() {
        // All inside structure: nothing to mark.
        #expect(marked("1 0 0 -1 0 9 cm /P << /MCID 0 >> BDC 0 0 1 1 re f EMC") == nil)
        // A Type 3 glyph, a ToUnicode map: not a page's content.
        #expect(marked("7 0 0 0 7 7 d1 0 0 7 7 re f") == nil)
        #expect(marked("/CIDInit /ProcSet findresource begin 12 dict begin begincmap") == nil)
        // An inline image, unbalanced marked content, an unended string or path.
        #expect(marked("1 0 0 -1 0 9 cm BI /W 1 /H 1 ID x EI") == nil)
        #expect(marked("1 0 0 -1 0 9 cm /P << /MCID 0 >> BDC 0 0 1 1 re f") == nil)
        #expect(marked("1 0 0 -1 0 9 cm EMC 0 0 1 1 re f") == nil)
        #expect(marked("1 0 0 -1 0 9 cm BT (abc Tj ET") == nil)
        #expect(marked("1 0 0 -1 0 9 cm 0 0 1 1 re") == nil)
        // Marked content or another object inside a path or a text object (found by the fuzzer:
        // an Artifact opened at the path's start would have crossed it).
        #expect(marked("1 0 0 -1 0 9 cm 10 10 m /P << /MCID 0 >> BDC 20 20 l S EMC") == nil)
        #expect(marked("1 0 0 -1 0 9 cm 10 10 m q 20 20 l S Q") == nil)
        #expect(marked("1 0 0 -1 0 9 cm BT /P << /MCID 0 >> BDC (x) Tj EMC ET") == nil)
        #expect(marked("1 0 0 -1 0 9 cm BT BT (x) Tj ET ET") == nil)
    }

    /// A file laid out as Cairo 1.16 writes one: a compressed page content, its length object
    /// after it, a page, an image stream whose stored bytes are `imageData`, the table.
    func cairoFile(content: String, imageData: [UInt8] = Array("pixels".utf8)) -> [UInt8] {
        let data = PDFStreamFilter.deflate(Array(content.utf8))!
        var file = Array("%PDF-1.5\n%\u{b5}\n".utf8)
        var offsets: [Int: Int] = [:]
        func object(_ number: Int, _ bytes: [UInt8]) {
            offsets[number] = file.count
            file += Array("\(number) 0 obj\n".utf8) + bytes + Array("endobj\n".utf8)
        }
        object(5, Array("<< /Length 6 0 R\n   /Filter /FlateDecode\n>>\nstream\n".utf8) + data + Array("\nendstream\n".utf8))
        object(6, Array("   \(data.count)\n".utf8))
        object(2, Array("<< /Type /Page /Contents 5 0 R >>\n".utf8))
        object(3, Array("<< /Type /XObject /Length \(imageData.count) >>\nstream\n".utf8) + imageData + Array("\nendstream\n".utf8))
        object(1, Array("<< /Type /Catalog >>\n".utf8))
        let xref = file.count
        file += Array("xref\n0 7\n0000000000 65535 f \n".utf8)
        for number in 1..<7 {
            file += Array((offsets[number].map { String(format: "%010d 00000 n \n", $0) } ?? "0000000000 00000 f \n").utf8)
        }
        file += Array("trailer\n<< /Size 7\n   /Root 1 0 R\n>>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return file
    }

    /// The file through the filter in pieces of `size` bytes.
    func filtered(_ file: [UInt8], pieces size: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        let filter = PDFStreamFilter { out += $0; return true }
        var at = 0
        while at < file.count {
            let end = min(file.count, at + size)
            #expect(Array(file[at..<end]).withUnsafeBytes { filter.take($0) })
            at = end
        }
        #expect(try filter.finish())
        return out
    }

    /// Every in-use entry of the table points at its object's "N 0 obj" line.
    func tableHolds(_ file: [UInt8]) -> Bool {
        guard let tail = PDFTail(file, start: 0) else { return false }
        return (1..<tail.size).allSatisfy { number in
            guard let offset = tail.offset(of: number), offset > 0 else { return true }
            return file[offset...].starts(with: Array("\(number) 0 obj\n".utf8)) && file[offset - 1] == 0x0A
        }
    }

    @Test func theFilterMovesOffsetsWhateverTheSplit() throws {
        let file = cairoFile(content: "1 0 0 -1 0 9 cm q 1 1 1 rg 0 0 9 9 re f Q /P << /MCID 0 >> BDC BT (x) Tj ET EMC\n")
        #expect(tableHolds(file))
        let outputs = try [1, 2, 7, 61, 500, file.count].map { try filtered(file, pieces: $0) }
        #expect(outputs.allSatisfy { $0 == outputs[0] })
        let out = outputs[0]
        #expect(out != file && tableHolds(out))
        // The content inflates to the marked page; the length object gives its new length.
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains("6 0 obj\n   \(PDFStreamFilter.deflate(PDFArtifacts.marked(Array("1 0 0 -1 0 9 cm q 1 1 1 rg 0 0 9 9 re f Q /P << /MCID 0 >> BDC BT (x) Tj ET EMC\n".utf8))!)!.count)\n"))
        // A page with nothing to mark passes byte for byte.
        let plain = cairoFile(content: "1 0 0 -1 0 9 cm /P << /MCID 0 >> BDC BT (x) Tj ET EMC\n")
        #expect(try filtered(plain, pieces: 13) == plain)
    }

    @Test func aStreamHeaderInsideAnImageFailsTheFileNotCorruptsIt() throws {
        // An image's stored bytes carrying a whole fake content stream, length object and all,
        // and a fake table: the real table puts neither where they were read.
        let fakeData = PDFStreamFilter.deflate(Array("1 0 0 -1 0 9 cm 0 0 9 9 re f\n".utf8))!
        let fake = Array("\n9 0 obj\n<< /Length 8 0 R\n   /Filter /FlateDecode\n>>\nstream\n".utf8) + fakeData
            + Array("\nendstream\nendobj\n8 0 obj\n   \(fakeData.count)\nendobj\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< >>\nstartxref\n1\n%%EOF\n".utf8)
        let file = cairoFile(content: "1 0 0 -1 0 9 cm /P << /MCID 0 >> BDC BT (x) Tj ET EMC\n", imageData: fake)
        #expect(tableHolds(file))
        var out: [UInt8] = []
        let filter = PDFStreamFilter { out += $0; return true }
        #expect(file.withUnsafeBytes { filter.take($0) })
        #expect(throws: PDFWriteError.self) { try filter.finish() }  // Render words it as a RenderError
        // Without the fake, the same page passes as it is.
        let honest = cairoFile(content: "1 0 0 -1 0 9 cm /P << /MCID 0 >> BDC BT (x) Tj ET EMC\n", imageData: Array(fake.dropFirst(30)))
        #expect(try filtered(honest, pieces: 1000) == honest)
    }
}
