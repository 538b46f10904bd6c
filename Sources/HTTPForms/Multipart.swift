/// `multipart/form-data` bodies (RFC 7578): the parts' names, file names and bytes.
package enum Multipart {
    package struct Part: Sendable {
        package var name: String
        package var filename: String?
        package var bytes: [UInt8]
    }

    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The boundary from a Content-Type header, nil when it is not multipart/form-data.
    package static func boundary(contentType: String) -> String? {
        let fields = contentType.split(separator: ";").map { $0.trimmingPrefix(while: \.isWhitespace) }
        guard let kind = fields.first, kind.lowercased() == "multipart/form-data" else { return nil }
        for field in fields.dropFirst() where field.lowercased().hasPrefix("boundary=") {
            var value = field.dropFirst("boundary=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return value.isEmpty || value.count > 70 ? nil : String(value)
        }
        return nil
    }

    package static func parse(_ body: [UInt8], boundary: String) throws -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [Part] = []
        guard var start = find(delimiter, in: body, from: 0) else { throw Malformed(description: "no multipart boundary in the body") }
        while true {
            start += delimiter.count
            if body.count >= start + 2, body[start] == UInt8(ascii: "-"), body[start + 1] == UInt8(ascii: "-") { return parts }
            // The line after a boundary, then headers up to an empty line.
            guard let headersEnd = find(Array("\r\n\r\n".utf8), in: body, from: start) else {
                throw Malformed(description: "a multipart part has no end of headers")
            }
            let headers = String(decoding: body[start..<headersEnd], as: UTF8.self)
            let contentStart = headersEnd + 4
            guard let next = find(Array("\r\n".utf8) + delimiter, in: body, from: contentStart) else {
                throw Malformed(description: "a multipart part is not closed by the boundary")
            }
            var name = "", filename: String?
            for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
                name = parameter("name", in: line) ?? ""
                filename = parameter("filename", in: line)
            }
            parts.append(Part(name: name, filename: filename, bytes: Array(body[contentStart..<next])))
            start = next + 2
        }
    }

    private static func parameter(_ key: String, in line: Substring) -> String? {
        for field in line.split(separator: ";") {
            let trimmed = field.trimmingPrefix(while: \.isWhitespace)
            guard trimmed.hasPrefix(key + "=") else { continue }
            var value = trimmed.dropFirst(key.count + 1)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var i = from
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == needle[0] {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
