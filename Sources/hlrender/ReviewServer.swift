import Glibc
import Support

/// `compare EXPECTED ACTUAL --review`: a small HTTP/1.1 server on 127.0.0.1 for the review page
/// (`ReviewPage`). One request per connection, one at a time: the only client is the reviewer's
/// browser. Every address starts with a random token, and the Host header must name this
/// server, so another local user or a web page elsewhere cannot approve a baseline.
final class ReviewServer {
    struct Request {
        var method: String
        /// The path after the token, without its leading slash ("", "approve/3").
        var route: String
    }

    struct Response {
        var status = "200 OK"
        var type = "application/json"
        var body: [UInt8]
    }

    let port: Int
    let token: String
    private let listener: Int32

    /// Listens on a free port of 127.0.0.1.
    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLIFailure(message: "review: cannot open a socket (\(String(cString: strerror(errno))))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw CLIFailure(message: "review: cannot listen on 127.0.0.1 (\(String(cString: strerror(errno))))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        var generator = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.joined()
    }

    deinit { close(listener) }

    /// The page's address.
    var url: String { "http://127.0.0.1:\(port)/\(token)/" }

    /// Answers requests until `handle` says to stop (after answering that request).
    func serve(_ handle: (Request) -> (Response, stop: Bool)) {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            // A browser may open a connection and send nothing (a preconnect): it must not
            // hold the only thread.
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let (response, stop) = read(client).map(handle) ?? (Response(status: "400 Bad Request", body: Array("{}".utf8)), false)
            write(response, to: client)
            close(client)
            if stop { return }
        }
    }

    /// The request's method and route when it is well formed, for this server, with the token.
    private func read(_ client: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while data.count < 65_536 {
            let n = recv(client, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            data += buffer[0..<n]
            if data.firstRange(of: [13, 10, 13, 10]) != nil { break }
        }
        let head = String(decoding: data, as: UTF8.self).split(separator: "\r\n")
        let parts = head.first?.split(separator: " ") ?? []
        guard parts.count == 3 else { return nil }
        let host = head.dropFirst().first { $0.lowercased().hasPrefix("host:") }.map { String($0.dropFirst(5)).trimmed }
        guard host == "127.0.0.1:\(port)" || host == "localhost:\(port)" else { return nil }
        let path = String(parts[1])
        guard path.hasPrefix("/\(token)/") || path == "/\(token)" else { return nil }
        return Request(method: String(parts[0]), route: String(path.dropFirst(token.count + 2)))
    }

    private func write(_ response: Response, to client: Int32) {
        let head = "HTTP/1.1 \(response.status)\r\nContent-Type: \(response.type)\r\nContent-Length: \(response.body.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        Posix.writeAll(client, Array(head.utf8) + response.body)
    }
}
