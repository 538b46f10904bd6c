import Foundation
@testable import Render
import Testing
@testable import PDFPost

/// The pieces of the catalog update: the sRGB profile, the annotation catcher, dates and text
/// strings.
@Suite struct PDFUpdateTests {
    func be32(_ bytes: [UInt8], _ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }

    @Test func theProfileIsAWellFormedICCv2Display() {
        let icc = SRGBProfile.bytes
        #expect(be32(icc, 0) == icc.count)
        #expect(Array(icc[12..<24]) == Array("mntrRGB XYZ ".utf8) && Array(icc[36..<40]) == Array("acsp".utf8))
        #expect(icc[8] == 2)
        // Every tag's data lies inside the file, 4-byte aligned; the curves' table is sRGB's.
        let count = be32(icc, 128)
        var signatures: [String] = []
        for i in 0..<count {
            let entry = 132 + 12 * i
            signatures.append(String(decoding: icc[entry..<(entry + 4)], as: UTF8.self))
            let offset = be32(icc, entry + 4), size = be32(icc, entry + 8)
            #expect(offset % 4 == 0 && offset + size <= icc.count)
        }
        #expect(signatures == ["desc", "cprt", "wtpt", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"])
        let curve = be32(icc, 132 + 12 * 6 + 4)
        #expect(Array(icc[curve..<(curve + 4)]) == Array("curv".utf8) && be32(icc, curve + 8) == 1024)
        let sample = { (i: Int) in Int(icc[curve + 12 + 2 * i]) << 8 | Int(icc[curve + 13 + 2 * i]) }
        #expect(sample(0) == 0 && sample(1023) == 65535)
        // Mid-grey (0.5 encoded) is 21.4% linear light.
        #expect(abs(Double(sample(511)) / 65535 - 0.2140) < 0.001)
        // The colorants add up to the D50 white.
        let xyz = { (tag: Int, k: Int) in Double(Int32(bitPattern: UInt32(self.be32(icc, self.be32(icc, 132 + 12 * tag + 4) + 8 + 4 * k)))) / 65536 }
        for k in 0..<3 { #expect(abs(xyz(3, k) + xyz(4, k) + xyz(5, k) - xyz(2, k)) < 0.001) }
    }

    /// Cairo's writes split anywhere: the same annotations are caught at the same offsets.
    @Test func annotationsAreCaughtAcrossAnySplit() {
        let file = Array("%PDF-1.5\n1 0 obj\n<< /Length 9 >>\nstream\n<< /Type /Annot fake\nendstream\nendobj\n12 0 obj\n<< /Type /Annot\n   /Subtype /Link\n   /A << /S /URI /URI (https://x.org/) >>\n>>\nendobj\n13 0 obj\n<< /Type /Page >>\nendobj\n7 0 obj\n<< /Type /Annot /Subtype /Link >>\nendobj\n".utf8)
        var results: [[String]] = []
        for size in [1, 2, 7, 23, 64, file.count] {
            let catcher = PDFAnnotations()
            var at = 0
            while at < file.count {
                let end = min(file.count, at + size)
                Array(file[at..<end]).withUnsafeBytes { catcher.scan($0, at: at) }
                at = end
            }
            results.append(catcher.caught.map { "\($0.number)@\($0.offset):\($0.text.hasSuffix("endobj"))" })
        }
        let twelve = String(decoding: file, as: UTF8.self).utf8.count - String(decoding: file, as: UTF8.self).components(separatedBy: "12 0 obj")[1].utf8.count - 8
        #expect(results.allSatisfy { $0 == results[0] }, "\(results)")
        #expect(results[0].count == 2 && results[0][0] == "12@\(twelve):true" && results[0][1].hasPrefix("7@"), "\(results[0])")
    }

    @Test func datesAndTextStrings() {
        #expect(PDFInformation.iso8601("D:20231114221320Z") == "2023-11-14T22:13:20Z")
        #expect(PDFInformation.iso8601("D:20231114221320+01'00'") == "2023-11-14T22:13:20+01:00")
        #expect(PDFInformation.iso8601("2023") == nil)
        #expect(PDFCatalog.textString("a (b)") == "<FEFF00610020002800620029>")
        #expect(PDFCatalog.textString("é") == "<FEFF00E9>")
        #expect(PDFTail.literal(after: "/Producer", in: "<< /Producer (cairo 1.16.0 (https://cairographics.org)) /X (y) >>")
                == "cairo 1.16.0 (https://cairographics.org)")
    }
}

/// An SVG's accessible name: escaped, and bounded for a long text.
@Suite struct SVGDocumentTests {
    let svg = Array(#"<?xml version="1.0"?>\#n<svg width="10px" height="10px">\#n<g/>\#n</svg>\#n"#.utf8)

    @Test func nameIsEscapedAndInTheRoot() {
        let named = String(decoding: SVGDocument.named(svg, title: #"a <b> & "c""#), as: UTF8.self)
        #expect(named.contains(#"<svg width="10px" height="10px" role="img" aria-label="a &lt;b&gt; &amp; &quot;c&quot;">"#), "\(named)")
        #expect(named.contains("\n<title>a &lt;b&gt; &amp; &quot;c&quot;</title>\n<g/>"))
        #expect(SVGDocument.named(svg, title: "  ") == svg)
    }

    @Test func aLongNameIsCutAtAWord() {
        let long = String(repeating: "word ", count: 1_000)
        let named = String(decoding: SVGDocument.named(svg, title: long), as: UTF8.self)
        let title = named.components(separatedBy: "<title>")[1].components(separatedBy: "</title>")[0]
        #expect(title.count <= SVGDocument.maxTitle + 1 && title.hasSuffix("word…"), "\(title.count)")
    }

    @Test func idsAreNumberedPerDocument() {
        let a = Array(##"<g id="surface41"><use xlink:href="#image7"/><image id="image7"/></g><use xlink:href="#surface41"/>"##.utf8)
        let out = String(decoding: SVGDocument.renumbered(a), as: UTF8.self)
        #expect(out == ##"<g id="surface1"><use xlink:href="#image1"/><image id="image1"/></g><use xlink:href="#surface1"/>"##, "\(out)")
    }
}
