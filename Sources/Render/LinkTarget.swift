import Support

/// A link address that may go into a PDF: the one guard between a user's `href` (markup, a
/// span's `link`, a variable, a CSV cell, a query string) and a PDF action. Every front end
/// reaches it through the `link` option; the PDF writer reaches the file only through
/// `pdfString`, whatever was checked before.
package struct LinkTarget: Sendable, Equatable {
    /// The address as the user gave it (the layout dump shows this).
    package let address: String

    /// The longest address taken (browsers' practical limit is higher; nothing legitimate on a
    /// card needs more).
    package static let maxBytes = 4096

    /// Checks `address`: 1 to 4,096 bytes, no control characters, and either `#fragment` or
    /// `scheme:...` with a scheme `schemes` allows (case-insensitive, as RFC 3986 says; by
    /// default the web's and e-mail's). A refusal is an `OptionError` saying what is allowed.
    package init(_ address: String, schemes: LinkSchemes = LinkSchemes()) throws {
        guard !address.isEmpty, address.utf8.count <= Self.maxBytes,
              !address.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw OptionError("must be a URI of 1 to \(Self.maxBytes) bytes without control characters")
        }
        if !address.hasPrefix("#") {
            let scheme = LinkSchemes.scheme(of: address)
            guard let scheme, schemes.allowed.contains(scheme) else {
                let allowed = (schemes.allowed.sorted().map { "\($0):" } + ["#name"]).joined(separator: ", ")
                let what = scheme.map { "scheme '\($0):'" } ?? "a relative address"
                throw OptionError("\(what) is not allowed in a link (allowed: \(allowed))")
            }
        }
        self.address = address
    }

    /// The address as PDF's URI action holds it (7-bit ASCII, PDF 32000-1 12.6.4.7): UTF-8,
    /// every byte outside RFC 3986's unreserved and reserved characters percent-encoded, and so
    /// are `(`, `)`, `'` and `\`. The result can close neither Cairo's attribute string nor the
    /// PDF string around it; a `%` already followed by two hex digits is kept.
    package var pdfString: String { Self.percentEncoded(address) }

    static func percentEncoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out = ""
        out.reserveCapacity(bytes.count)
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "%"), i + 2 < bytes.count, bytes[i + 1].isHexDigit, bytes[i + 2].isHexDigit {
                out.append("%")
            } else if Self.kept(b) {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "%" + hexByte(b)
            }
        }
        return out
    }

    /// Unreserved and reserved characters (RFC 3986 2.2, 2.3) less the four that mean
    /// something inside a PDF literal string or Cairo's attribute syntax.
    private static func kept(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~:/?#[]@!$&*+,;=".utf8.contains(b)
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

