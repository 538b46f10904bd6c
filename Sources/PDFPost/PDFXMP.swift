import Support

/// What Cairo wrote into the document information dictionary that XMP must repeat word for word
/// (PDF/A): the producer and the dates.
struct PDFInformation {
    var producer: String?
    /// ISO 8601, as XMP writes dates.
    var created: String?
    var modified: String?

    init(_ dictionary: String) {
        producer = PDFTail.literal(after: "/Producer", in: dictionary)
        created = PDFTail.literal(after: "/CreationDate", in: dictionary).flatMap(PDFInformation.iso8601)
        modified = PDFTail.literal(after: "/ModDate", in: dictionary).flatMap(PDFInformation.iso8601)
    }

    /// "D:20261128030012Z" (or with "+01'00'") as "2026-11-28T03:00:12Z" ("+01:00").
    static func iso8601(_ date: String) -> String? {
        guard date.hasPrefix("D:") else { return nil }
        let digits = Array(date.dropFirst(2).prefix { $0.isNumber })
        guard digits.count == 14 else { return nil }
        let part = { (from: Int, count: Int) in String(digits[from..<(from + count)]) }
        var zone = String(date.dropFirst(16))
        if zone.hasPrefix("+") || zone.hasPrefix("-") {
            let zoneDigits = zone.filter(\.isNumber)
            guard zoneDigits.count == 4 else { return nil }
            zone = String(zone.first!) + zoneDigits.prefix(2) + ":" + zoneDigits.suffix(2)
        } else if zone != "Z" {
            zone = "Z"
        }
        return "\(part(0, 4))-\(part(4, 2))-\(part(6, 2))T\(part(8, 2)):\(part(10, 2)):\(part(12, 2))\(zone)"
    }
}

extension PDFMetadata {
    /// The XMP packet declaring the standards (PDF/UA-1: `pdfuaid:part`; PDF/A-2b: `pdfaid`)
    /// with the document information repeated as PDF/A asks (title, author, subject, keywords,
    /// producer, creator tool, dates); nil when no standard is asked for.
    func xmp(information: PDFInformation) -> String? {
        guard !standards.isEmpty else { return nil }
        var properties = ""
        if standards.contains(.ua1) { properties += "<pdfuaid:part>1</pdfuaid:part>" }
        if standards.contains(.a2b) { properties += "<pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>" }
        let alternative = { (value: String) in "<rdf:Alt><rdf:li xml:lang=\"x-default\">\(value.xml10Escaped)</rdf:li></rdf:Alt>" }
        if let title { properties += "<dc:title>\(alternative(title))</dc:title>" }
        if let author { properties += "<dc:creator><rdf:Seq><rdf:li>\(author.xml10Escaped)</rdf:li></rdf:Seq></dc:creator>" }
        if let subject { properties += "<dc:description>\(alternative(subject))</dc:description>" }
        if let keywords { properties += "<pdf:Keywords>\(keywords.xml10Escaped)</pdf:Keywords>" }
        if let producer = information.producer { properties += "<pdf:Producer>\(producer.xml10Escaped)</pdf:Producer>" }
        properties += "<xmp:CreatorTool>hlrender</xmp:CreatorTool>"
        if let created = information.created { properties += "<xmp:CreateDate>\(created)</xmp:CreateDate>" }
        if let modified = information.modified { properties += "<xmp:ModifyDate>\(modified)</xmp:ModifyDate>" }
        // PDF/A-2 knows pdfuaid only when the packet describes it (an extension schema).
        let extensionSchema = standards.contains(.ua1) && standards.contains(.a2b) ? PDFMetadata.pdfuaidSchema : ""
        return "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\""
            + " xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\""
            + " xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\""
            + " xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\" xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\""
            + " xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">"
            + properties + extensionSchema + "</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>"
    }

    /// The PDF/A extension schema describing PDF/UA's identification property.
    private static let pdfuaidSchema = "<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType=\"Resource\">"
        + "<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>"
        + "<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>"
        + "<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix><pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType=\"Resource\">"
        + "<pdfaProperty:name>part</pdfaProperty:name><pdfaProperty:valueType>Integer</pdfaProperty:valueType>"
        + "<pdfaProperty:category>internal</pdfaProperty:category>"
        + "<pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>"
        + "</rdf:li></rdf:Seq></pdfaSchema:property></rdf:li></rdf:Bag></pdfaExtension:schemas>"
}
