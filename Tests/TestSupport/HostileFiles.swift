/// Files made by hand the way an attacker would, for the trust tests.
package enum HostileFiles {
    /// A one-page PDF whose MediaBox is `box`, written by hand (poppler reads what it likes of
    /// numbers PDF syntax does not have, such as `1e26`).
    package static func onePagePDF(mediaBox box: String) -> [UInt8] {
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                       "<< /Type /Page /Parent 2 0 R /MediaBox [\(box)] /Resources << >> /Contents 4 0 R >>",
                       "<< /Length 0 >>\nstream\n\nendstream"]
        for (i, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(out.utf8)
    }
}
