import Glibc
import Typeset
import Support

/// Reading the text to render: --text, --text-file or standard input, checked as UTF-8.
enum InputText {
    static func read(text: String?, file: String?, limit: Int, what: String = "text file") throws -> String {
        if text != nil && file != nil { throw CLIFailure(message: "give either --text or --text-file, not both") }
        if let text { return text }
        let bytes: [UInt8]
        let name: String
        if let file {
            bytes = try Posix.readFile(file, as: what, limit: limit)
            name = "\(what) '\(file)'"
        } else {
            if Posix.stdinIsTerminal {
                throw CLIFailure(message: "no text: give --text, --text-file or pipe text on standard input")
            }
            bytes = try Posix.readFile("-", as: what, limit: limit)
            name = "standard input"
        }
        var text = try decode(bytes, name: name)
        // A file's final newline ends its last line; it does not start an empty one.
        if text.hasSuffix("\r\n") { text.removeLast(1) } else if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Strict UTF-8 decoding; the error names the offset of the first bad byte.
    static func decode(_ bytes: [UInt8], name: String) throws -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(scalar): offset += scalar.count
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error:
                throw CLIFailure(message: "\(name) is not valid UTF-8: bad byte 0x\(hexByte(bytes[offset])) at byte offset \(offset)")
            }
        }
    }
}
