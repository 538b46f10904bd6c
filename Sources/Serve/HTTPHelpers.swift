// Built with the Service trait only (Package.swift): Hummingbird is not resolved without it.
#if Service
import Card
import HTTPTypes
import Hummingbird
import Render
import Support

/// Small pieces of HTTP the routes share: JSON errors, content negotiation, query strings,
/// entity tags.
enum HTTP {
    /// An image's description header: `Image-Description`, the UTF-8 text percent-encoded (only
    /// unreserved ASCII as itself, so no byte of the text can end the header), at most 1,024
    /// bytes encoded, cut at a character. None for an empty description (or a PDF, which has
    /// its own title and structure).
    static func describe(_ headers: inout HTTPFields, _ description: String) {
        guard !description.isEmpty, let name = HTTPField.Name("Image-Description") else { return }
        var encoded = ""
        for character in description {
            var piece = ""
            for byte in String(character).utf8 {
                let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
                piece += unreserved ? String(UnicodeScalar(byte)) : "%" + hexByte(byte)
            }
            guard encoded.utf8.count + piece.utf8.count <= 1024 else { break }
            encoded += piece
        }
        headers[name] = encoded
    }

    /// `{"error": "...", "path": "blocks[0].size"}` with `status`.
    static func error(_ status: HTTPResponse.Status, _ message: String, path: String? = nil, headers: HTTPFields = [:]) -> Response {
        var members: [(String, JSONValue)] = [("error", .string(message))]
        if let path { members.append(("path", .string(path))) }
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: JSONValue.members(members).serialized() + "\n")))
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(string: value.serialized() + "\n")))
    }

    static let mediaTypes: [(type: String, format: OutputFormat)] = [
        ("image/png", .png), ("image/jpeg", .jpeg), ("image/webp", .webp), ("application/pdf", .pdf),
        ("image/svg+xml", .svg), ("image/avif", .avif),
    ]

    static func contentType(_ format: OutputFormat) -> String { mediaTypes.first { $0.format == format }!.type }

    /// The format `Accept` asks for (highest q first, PNG for */* and image/*); nil when it
    /// names nothing we make (406). No header: PNG.
    static func negotiate(accept: String?) -> OutputFormat? {
        guard let accept, !accept.trimmingPrefix(while: \.isWhitespace).isEmpty else { return .png }
        var choices: [(format: OutputFormat, q: Double, order: Int)] = []
        for (order, item) in accept.split(separator: ",").enumerated() {
            let fields = item.split(separator: ";").map { String($0).trimmed.lowercased() }
            guard let type = fields.first else { continue }
            let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            guard q > 0 else { continue }
            if type == "*/*" || type == "image/*" {
                choices.append((.png, q, order))
            } else if let match = mediaTypes.first(where: { $0.type == type }) {
                choices.append((match.format, q, order))
            }
        }
        return choices.sorted { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }.first?.format
    }

    /// `?format=` values.
    static func format(named name: String) -> OutputFormat? {
        OutputFormat(extension: name)
    }

    /// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for it); `*`
    /// counts only where `star` allows it.
    static func matches(ifNoneMatch header: String?, etag: String, star: Bool) -> Bool {
        guard let header else { return false }
        let bare = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        return header.split(separator: ",").contains { item in
            let tag = item.trimmingPrefix(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            let text = Substring(String(tag))
            return (star && text == "*") || bare(text) == bare(Substring(etag))
        }
    }

    /// `Cache-Control: no-cache` (or `no-store`) from the client: render anew.
    static func wantsFresh(_ header: String?) -> Bool {
        guard let header = header?.lowercased() else { return false }
        return header.split(separator: ",").contains { ["no-cache", "no-store", "max-age=0"].contains(String($0).trimmed) }
    }
}
#endif
